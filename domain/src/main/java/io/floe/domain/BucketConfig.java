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
   * {@link #uriOf}. A location that is not canonical ({@link CanonicalLocation}) addresses none,
   * so that no spelling can climb out of the prefix it claims to be in.
   */
  public Optional<StoragePath> pathOf(String uri) {
    try {
      return pathOf(CanonicalLocation.parse(uri));
    } catch (DomainException e) {
      return Optional.empty();
    }
  }

  /** The path inside this bucket that {@code location} addresses, if it is in this bucket. */
  public Optional<StoragePath> pathOf(CanonicalLocation location) {
    return root().filter(location::isWithin)
        .map(root -> relative(location.path(), root.path()));
  }

  /**
   * Where this bucket's keys start, as a canonical location: {@code s3://bucket}, {@code
   * gs://bucket}, or {@code file:///<directory>}. Empty for a platform Iceberg cannot use, or a
   * local directory no canonical location can name.
   */
  public Optional<CanonicalLocation> root() {
    try {
      return switch (platform) {
        case S3, S3_COMPATIBLE -> Optional.of(new CanonicalLocation("s3", bucket,
            StoragePath.root()));
        case GCS -> Optional.of(new CanonicalLocation("gs", bucket, StoragePath.root()));
        case LOCAL -> Optional.of(CanonicalLocation.parse(bucket));
        case AZURE -> Optional.empty();
      };
    } catch (DomainException e) {
      return Optional.empty();
    }
  }

  private static StoragePath relative(StoragePath path, StoragePath root) {
    return root.isRoot() ? path
        : path.equals(root) ? StoragePath.root()
        : new StoragePath(path.value().substring(root.value().length() + 1));
  }

  private static String stripTrailingSlash(String value) {
    return value.endsWith("/") && value.length() > 1 ? value.substring(0, value.length() - 1) : value;
  }
}
