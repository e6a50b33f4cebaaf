package io.floe.domain;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One of an org's bucket configurations: where data goes and how the server reaches it. The
 * nickname is how users name it; {@code prefix} is the part of the bucket the org may use.
 */
public record BucketConfig(
    UUID id,
    UUID orgId,
    CatalogName nickname,
    StoragePlatform platform,
    String bucket,
    StoragePath prefix,
    Optional<String> endpoint,
    Optional<String> region,
    boolean pathStyle,
    BucketCredentials credentials,
    boolean isDefault) {

  public BucketConfig {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(nickname, "nickname");
    Objects.requireNonNull(platform, "platform");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(credentials, "credentials");
    if (bucket == null || bucket.isBlank()) {
      throw new DomainException("a bucket configuration needs a bucket name");
    }
    endpoint.ifPresent(text -> StorableText.require(text, "the endpoint"));
    region.ifPresent(text -> StorableText.require(text, "the region"));
    if (bucket.chars().anyMatch(Character::isISOControl)
        || StorableText.problem(bucket).isPresent()) {
      throw new DomainException("invalid bucket name '" + Names.printable(bucket) + "'");
    }
    if (platform == StoragePlatform.LOCAL) {
      // A local bucket is a directory: an absolute, normalized path.
      if (!bucket.startsWith("/") || bucket.contains("/../") || bucket.endsWith("/..")
          || bucket.contains("/./") || bucket.contains("//")) {
        throw new DomainException("a local bucket must be an absolute, normalized directory path, "
            + "got '" + Names.printable(bucket) + "'");
      }
    } else if (bucket.contains("/")) {
      throw new DomainException("invalid bucket name '" + Names.printable(bucket) + "'");
    }
  }

  /** Refuses to place Iceberg data on a platform that cannot hold it. */
  public void requireIcebergSupport() {
    if (!platform.supportsIceberg()) {
      throw new DomainException("bucket configuration '" + nickname + "' is on "
          + platform.wireName() + ", which is not supported for Iceberg yet");
    }
  }

  /** The URI of a path in this bucket as engines and FileIO implementations address it. */
  public String uriOf(StoragePath path) {
    String scheme = switch (platform) {
      case S3, S3_COMPATIBLE -> "s3://";
      case GCS -> "gs://";
      case AZURE -> "abfss://";
      case LOCAL -> "file://";
    };
    String root = platform == StoragePlatform.LOCAL ? stripTrailingSlash(bucket) : bucket;
    return path.isRoot() ? scheme + root : scheme + root + "/" + path.value();
  }

  /**
   * The path inside this bucket that {@code uri} addresses, if it addresses one: the inverse of
   * {@link #uriOf}. Paths with empty, "." or ".." segments are refused, so that no location can
   * climb out of the prefix it claims to be in.
   */
  public Optional<StoragePath> pathOf(String uri) {
    if (uri == null) {
      return Optional.empty();
    }
    if (uri.endsWith("/")) {
      uri = uri.substring(0, uri.length() - 1);
    }
    if (platform == StoragePlatform.LOCAL) {
      uri = canonicalLocalUri(uri);
    }
    String root = uriOf(StoragePath.root());
    if (uri.equals(root)) {
      return Optional.of(StoragePath.root());
    }
    if (!uri.startsWith(root + "/")) {
      return Optional.empty();
    }
    try {
      return Optional.of(new StoragePath(uri.substring(root.length() + 1)));
    } catch (DomainException e) {
      return Optional.empty();
    }
  }

  /**
   * Local files are written as {@code file:///p}, {@code file:/p} (Hadoop's form) or plain
   * {@code /p}; all name the same file.
   */
  private static String canonicalLocalUri(String uri) {
    if (uri.startsWith("file:///")) {
      return uri;
    }
    if (uri.startsWith("file:/")) {
      return "file://" + uri.substring("file:".length());
    }
    if (uri.startsWith("/")) {
      return "file://" + uri;
    }
    return uri;
  }

  private static String stripTrailingSlash(String value) {
    return value.endsWith("/") && value.length() > 1 ? value.substring(0, value.length() - 1) : value;
  }
}
