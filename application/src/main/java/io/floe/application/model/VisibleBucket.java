package io.floe.application.model;

import io.floe.domain.BucketConfig;
import java.util.Objects;

/**
 * A bucket configuration as one caller may see it. Its whole configuration (name, prefix,
 * endpoint, region, how the server authenticates, the role it assumes, a local directory) is the
 * admins'; for anyone else {@code configurationShown} is false and only its id, nickname,
 * platform and default flag may be shown. The configuration is still carried for what the server
 * decides with it (whether a client could write a repo there).
 */
public record VisibleBucket(BucketConfig bucket, boolean configurationShown) {
  public VisibleBucket {
    Objects.requireNonNull(bucket, "bucket");
  }
}
