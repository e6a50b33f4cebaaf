package io.floe.application.model;

import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.Objects;
import java.util.Optional;

/** A bucket configuration as requested, before the server gives it an id and an org. */
public record BucketSpec(
    CatalogName nickname,
    StoragePlatform platform,
    String bucket,
    StoragePath prefix,
    Optional<String> endpoint,
    Optional<String> region,
    boolean pathStyle,
    BucketCredentials credentials) {

  public BucketSpec {
    Objects.requireNonNull(nickname, "nickname");
    Objects.requireNonNull(platform, "platform");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(credentials, "credentials");
  }

  /** A bucket that is a directory on the server's own disk. */
  public static BucketSpec local(String nickname, String directory) {
    return new BucketSpec(new CatalogName(nickname), StoragePlatform.LOCAL, directory,
        StoragePath.root(), Optional.empty(), Optional.empty(), false, BucketCredentials.none());
  }
}
