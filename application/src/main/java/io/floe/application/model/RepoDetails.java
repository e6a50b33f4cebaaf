package io.floe.application.model;

import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A repo as its users see it: the repo, the nickname of its bucket, the URI of its Icechunk
 * repository (what an Icechunk client opens), and for a soft-deleted repo the instant until which
 * it can be restored.
 */
public record RepoDetails(Repo repo, String bucketNickname, String locationUri,
    Optional<Instant> restorableUntil) {
  public RepoDetails {
    Objects.requireNonNull(repo, "repo");
    Objects.requireNonNull(bucketNickname, "bucketNickname");
    Objects.requireNonNull(locationUri, "locationUri");
    Objects.requireNonNull(restorableUntil, "restorableUntil");
  }
}
