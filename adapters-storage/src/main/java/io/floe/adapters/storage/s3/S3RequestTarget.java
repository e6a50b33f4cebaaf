package io.floe.adapters.storage.s3;

import io.floe.domain.BucketConfig;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * What an S3 request addresses: the bucket, the object key (absent for bucket-level requests)
 * and the query parameters, read from its URI in either addressing style. A URI for another
 * host or another bucket is refused: a signature is only good for the host it was made for.
 */
record S3RequestTarget(String bucket, Optional<String> key, Map<String, String> query) {

  static S3RequestTarget parse(URI uri, BucketConfig config) {
    String authority = authorityOf(uri);
    String path = uri.getPath() == null ? "" : uri.getPath();
    Map<String, String> query = queryOf(uri);
    String bucketPrefix = config.bucket().toLowerCase(Locale.ROOT) + ".";
    for (String serviceHost : serviceHosts(config)) {
      if (authority.equals(serviceHost)) {
        return pathStyle(path, query, config);
      }
      if (authority.equals(bucketPrefix + serviceHost)) {
        return new S3RequestTarget(config.bucket(), keyOf(path), query);
      }
    }
    throw refused("request for host '" + authority + "', which is not this table's bucket");
  }

  /** {@code /bucket/key...}: the first segment names the bucket. */
  private static S3RequestTarget pathStyle(String path, Map<String, String> query,
      BucketConfig config) {
    String rest = path.startsWith("/") ? path.substring(1) : path;
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (!bucket.equals(config.bucket())) {
      throw refused("request for bucket '" + bucket + "', which is not this table's bucket");
    }
    return new S3RequestTarget(bucket, slash < 0 ? Optional.empty()
        : keyOf(rest.substring(slash)), query);
  }

  private static Optional<String> keyOf(String path) {
    String key = path.startsWith("/") ? path.substring(1) : path;
    return key.isEmpty() ? Optional.empty() : Optional.of(key);
  }

  /**
   * The hosts (with port when one is given) that serve the bucket: the configured endpoint, or
   * AWS's global, regional and dual-stack S3 hosts.
   */
  private static Set<String> serviceHosts(BucketConfig config) {
    if (config.endpoint().isPresent()) {
      return Set.of(authorityOf(URI.create(config.endpoint().get())));
    }
    String region = S3Clients.region(config).id();
    String suffix = region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
    return Set.of("s3." + suffix, "s3." + region + "." + suffix,
        "s3.dualstack." + region + "." + suffix);
  }

  private static String authorityOf(URI uri) {
    if (uri.getHost() == null) {
      throw refused("request without a host");
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    return uri.getPort() < 0 ? host : host + ":" + uri.getPort();
  }

  private static Map<String, String> queryOf(URI uri) {
    Map<String, String> query = new LinkedHashMap<>();
    String raw = uri.getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (query.put(name, value) != null) {
        throw refused("query parameter '" + name + "' given twice");
      }
    }
    return query;
  }

  private static String decode(String value) {
    // Query strings from the SDK encode spaces as %20; '+' never stands for a space there.
    return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  static ForbiddenException refused(String why) {
    return new ForbiddenException("Not signing this storage request: %s", why);
  }
}
