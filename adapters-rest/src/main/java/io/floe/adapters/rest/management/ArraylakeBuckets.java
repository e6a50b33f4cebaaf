package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.Invalid;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.adapters.rest.s3.LocalBucketEndpoint;
import io.floe.domain.StoragePlatform;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Floe's bucket configurations in the arraylake client's vocabulary, both ways. The client's
 * model knows the platforms s3, s3-compatible, gs and azure, wants a plain bucket name, reads
 * region, endpoint and addressing from {@code extra_config} and its credentials from
 * {@code auth_config}; Floe's own fields ({@code endpoint}, {@code region}, {@code path_style},
 * {@code auth}) stay beside them, so one body serves both.
 *
 * <p>A local bucket (a directory of the server) has no place in that model. The client sees it
 * as an S3 bucket named {@value LocalBucketEndpoint#BUCKET} at Floe's own S3 endpoint (the
 * server's address, path-style) with a customer-managed role, so that it asks the repo's
 * credentials routes for credentials: Floe vends its own, scoped to the repo's prefix, which
 * that endpoint accepts ({@link LocalBucketEndpoint}). The directory is
 * {@code extra_config.floe_local_directory}.
 */
final class ArraylakeBuckets {
  /** The region the endpoint of local buckets signs for; it serves one place only. */
  static final String LOCAL_REGION = "us-east-1";
  /** The role a local bucket has in the client's model: the client asks Floe for credentials. */
  static final String LOCAL_ROLE_ACCOUNT = "floe";
  static final String LOCAL_ROLE_NAME = "floe-local-bucket";

  private ArraylakeBuckets() {}

  /**
   * The platform as the client names it. An S3-compatible bucket with a role to assume is "s3"
   * with its endpoint: the client asks for vended credentials on "s3" buckets only, and reaches
   * an "s3" bucket at the endpoint in {@code extra_config} exactly as an "s3-compatible" one.
   */
  static String platform(BucketConfig bucket) {
    return switch (bucket.platform()) {
      case S3 -> "s3";
      case S3_COMPATIBLE -> vendsForRole(bucket) ? "s3" : "s3-compatible";
      case LOCAL -> "s3";
      case GCS -> "gs";
      case AZURE -> "azure";
    };
  }

  /** The bucket name as the client's model accepts it: no directory path for a local bucket. */
  static String name(BucketConfig bucket) {
    return bucket.platform() == StoragePlatform.LOCAL ? LocalBucketEndpoint.BUCKET
        : bucket.bucket();
  }

  /**
   * Region, endpoint and addressing under the keys the client reads; {@code serverUrl} is this
   * server as the caller reached it, the endpoint of a local bucket.
   */
  static Map<String, Object> extraConfig(BucketConfig bucket, String serverUrl) {
    Map<String, Object> config = new LinkedHashMap<>();
    if (bucket.platform() == StoragePlatform.LOCAL) {
      config.put("region_name", LOCAL_REGION);
      endpoint(config, serverUrl);
      config.put("force_path_style", true);
      config.put("floe_local_directory", bucket.bucket());
      return config;
    }
    bucket.region().ifPresent(region -> config.put("region_name", region));
    bucket.endpoint().ifPresent(endpoint -> endpoint(config, endpoint));
    if (bucket.platform() == StoragePlatform.S3
        || bucket.platform() == StoragePlatform.S3_COMPATIBLE) {
      config.put("force_path_style", bucket.pathStyle());
    }
    return config;
  }

  private static void endpoint(Map<String, Object> config, String endpoint) {
    config.put("endpoint_url", endpoint);
    config.put("use_ssl", endpoint.toLowerCase(Locale.ROOT).startsWith("https:"));
  }

  /**
   * How the client may reach the bucket, or null when it cannot on its own: the server's keys and
   * ambient identity are the server's. An S3 bucket with a role to assume is the client's
   * "customer managed role": the client then asks the repo's credentials routes for credentials
   * Floe vends by assuming that role, scoped to the repo's prefix.
   */
  static Map<String, Object> authConfig(BucketConfig bucket) {
    BucketCredentials credentials = bucket.credentials();
    if (bucket.platform() == StoragePlatform.LOCAL) {
      return Map.of("method", "aws_customer_managed_role", "external_customer_id",
          LOCAL_ROLE_ACCOUNT, "external_role_name", LOCAL_ROLE_NAME);
    }
    if (credentials.kind() == BucketCredentials.Kind.NONE) {
      return Map.of("method", "anonymous");
    }
    if (vendsForRole(bucket)) {
      return awsRole(credentials.roleArn().get()).orElse(null);
    }
    return null;
  }

  /**
   * Whether the client, writing a repository itself, gets credentials for this bucket: only for
   * one it sees as a customer-managed role, for which it asks Floe to vend them. Anywhere else it
   * would write anonymously, which stores refuse.
   */
  static boolean clientGetsCredentials(BucketConfig bucket) {
    return authConfig(bucket) != null && !"anonymous".equals(authConfig(bucket).get("method"));
  }

  /**
   * Refuses a repo the client means to create itself on a bucket it gets no credentials for,
   * before anything is claimed.
   */
  static void requireClientCanWrite(BucketConfig bucket) {
    if (!clientGetsCredentials(bucket)) {
      throw new UnsupportedOperationException(String.format("The arraylake client cannot create "
          + "a repo on bucket '%s': Floe can vend it credentials only for a bucket with a role "
          + "to assume (auth.role_arn on S3), and this one has none. Add a role, or let Floe "
          + "create the repo (POST /orgs/{org}/repos without create_mode=register, or "
          + "'floe repos create')", bucket.nickname()));
    }
  }

  private static boolean vendsForRole(BucketConfig bucket) {
    return (bucket.platform() == StoragePlatform.S3
        || bucket.platform() == StoragePlatform.S3_COMPATIBLE)
        && bucket.credentials().roleArn().isPresent();
  }

  /** {@code arn:aws:iam::<account>:role/<name>} as the client's account id and role name. */
  private static Optional<Map<String, Object>> awsRole(String arn) {
    String[] parts = arn.split(":", 6);
    if (parts.length != 6 || !parts[5].startsWith("role/")) {
      return Optional.empty();
    }
    return Optional.of(Map.of("method", "aws_customer_managed_role",
        "external_customer_id", parts[4], "external_role_name",
        parts[5].substring("role/".length())));
  }

  /** A platform named in either vocabulary. */
  static StoragePlatform platformOf(String raw) {
    return switch (raw.toLowerCase(Locale.ROOT)) {
      case "gs" -> StoragePlatform.GCS;
      case "minio" -> StoragePlatform.S3_COMPATIBLE;
      default -> StoragePlatform.fromWireName(raw);
    };
  }

  /** The endpoint of a create or update body: Floe's field, else the client's. */
  static Optional<String> endpoint(JsonFields fields) {
    return fields.text("endpoint").or(() -> extraConfigText(fields, "endpoint_url"));
  }

  static Optional<String> region(JsonFields fields) {
    return fields.text("region").or(() -> extraConfigText(fields, "region_name"));
  }

  /**
   * Path-style addressing: Floe's field, else the client's {@code force_path_style}, which the
   * client defaults to on when {@code use_ssl} is off.
   */
  static Optional<Boolean> pathStyle(JsonFields fields) {
    return fields.bool("path_style").or(() -> extraConfig(fields).flatMap(extra ->
        extra.bool("force_path_style").or(() -> extra.bool("use_ssl").map(ssl -> !ssl))));
  }

  /** Whether the body carries the client's {@code extra_config}, which replaces all three. */
  static boolean hasExtraConfig(JsonFields fields) {
    return extraConfig(fields).isPresent();
  }

  /**
   * Credentials from the client's {@code auth_config}: anonymous access, or HMAC keys that become
   * the server's static keys. Delegation to a customer's role needs the server to hold an identity
   * of its own, which Floe configures with {@code auth} (method ambient, role_arn) instead.
   */
  static Optional<BucketCredentials> credentials(JsonFields fields) {
    JsonNode auth = fields.node("auth_config");
    if (auth == null || auth.isNull()) {
      return Optional.empty();
    }
    JsonFields config = new JsonFields(auth);
    String method = config.text("method").orElse("");
    return Optional.of(switch (method) {
      case "anonymous" -> BucketCredentials.none();
      case "hmac" -> BucketCredentials.staticKeys(
          config.text("access_key_id").orElseThrow(() ->
              Invalid.because("auth_config.access_key_id is required for hmac")),
          config.text("secret_access_key").orElseThrow(() ->
              Invalid.because("auth_config.secret_access_key is required for hmac")));
      default -> throw Invalid.because("Floe cannot use auth_config method '" + method
          + "': use anonymous or hmac, or configure a role to assume with Floe's own fields "
          + "(\"auth\": {\"method\": \"ambient\", \"role_arn\": \"...\"})");
    });
  }

  private static Optional<String> extraConfigText(JsonFields fields, String key) {
    return extraConfig(fields).flatMap(extra -> extra.text(key));
  }

  private static Optional<JsonFields> extraConfig(JsonFields fields) {
    JsonNode extra = fields.node("extra_config");
    return extra == null || extra.isNull() ? Optional.empty() : Optional.of(new JsonFields(extra));
  }
}
