package io.floe.application.port.in.repo;

import io.floe.application.model.RepoGarbage;
import io.floe.application.security.OrgContext;
import java.time.Duration;
import java.util.Objects;

/**
 * Deletes what a repo stores and nothing reaches: walks every branch and tag of its Icechunk
 * repository, follows every table version their commits point at into the tables' files, and
 * deletes the unreachable objects older than a grace period. Org admins only.
 */
public interface CollectRepoGarbageUseCase {
  /** Iceberg's own orphan-file removal waits as long by default. */
  Duration DEFAULT_GRACE = Duration.ofDays(3);

  /** What to collect: {@code dryRun} only reports; {@code grace} spares younger objects. */
  record Collection(boolean dryRun, Duration grace) {
    public Collection {
      Objects.requireNonNull(grace, "grace");
    }
  }

  RepoGarbage collect(OrgContext context, String repo, Collection collection);
}
