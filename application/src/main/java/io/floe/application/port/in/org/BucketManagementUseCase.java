package io.floe.application.port.in.org;

import io.floe.application.model.BucketSpec;
import io.floe.application.model.VisibleBucket;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An org's bucket configurations. A bucket is named by its nickname or its id; exactly one may be
 * the org's default, which namespaces created without a bucket go to.
 */
public interface BucketManagementUseCase {
  /**
   * Changes to a bucket configuration; what is absent stays. Where the data lives (bucket, prefix,
   * platform) cannot change while anything holds a prefix on it.
   */
  record BucketUpdate(Optional<String> bucket, Optional<String> prefix,
      Optional<String> platform, Optional<Optional<String>> endpoint,
      Optional<Optional<String>> region, Optional<Boolean> pathStyle,
      Optional<BucketCredentials> credentials) {
    public BucketUpdate {
      Objects.requireNonNull(bucket, "bucket");
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(platform, "platform");
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(pathStyle, "pathStyle");
      Objects.requireNonNull(credentials, "credentials");
    }

    public boolean movesData() {
      return bucket.isPresent() || prefix.isPresent() || platform.isPresent();
    }
  }

  /** Every member lists the org's buckets; only admins see their configurations. */
  List<VisibleBucket> list(OrgContext context);

  VisibleBucket get(OrgContext context, String nicknameOrId);

  /** Adds a bucket; the org's first bucket, or one asked to be, becomes the default. */
  BucketConfig create(OrgContext context, BucketSpec spec, boolean makeDefault);

  BucketConfig update(OrgContext context, String nicknameOrId, BucketUpdate update);

  /** Removes a bucket nothing holds a prefix on (409 otherwise). */
  void delete(OrgContext context, String nicknameOrId);

  BucketConfig makeDefault(OrgContext context, String nicknameOrId);
}
