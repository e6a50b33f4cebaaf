package io.floe.application.model;

import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A repo as its users see it: the repo, the bucket configuration it lives on, the URI of its
 * Icechunk repository (what an Icechunk client opens), and for a soft-deleted repo the instant
 * until which it can be restored.
 */
public record RepoDetails(Repo repo, BucketConfig bucket, String locationUri,
    Optional<Instant> restorableUntil) {
  public RepoDetails {
    Objects.requireNonNull(repo, "repo");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(locationUri, "locationUri");
    Objects.requireNonNull(restorableUntil, "restorableUntil");
  }

  public String bucketNickname() {
    return bucket.nickname().value();
  }
}
