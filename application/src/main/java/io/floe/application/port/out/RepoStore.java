package io.floe.application.port.out;

import io.floe.domain.CatalogName;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Repo rows. Live repos are those not soft-deleted; only they are found by name. */
public interface RepoStore {

  /** A soft-deleted repo and the instant until which it may be restored. */
  record DeletedRepo(Repo repo, Instant restorableUntil) {}

  void insert(Repo repo);

  Optional<Repo> findLive(UUID orgId, CatalogName name);

  /** Live repos of the org, ordered by name. */
  List<Repo> listLive(UUID orgId);

  /** Soft-deleted repos of the org still inside their recovery period at {@code now}. */
  List<DeletedRepo> listRestorable(UUID orgId, Instant now);

  /** The repo of that name deleted most recently, if it is still inside its recovery period. */
  Optional<DeletedRepo> findRestorable(UUID orgId, CatalogName name, Instant now);

  /** Replaces a repo's description; empty clears it. */
  void describe(UUID repoId, Optional<String> description);

  /** Makes a soft-deleted repo live again. */
  void markRestored(UUID repoId);
}
