package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.LifecycleRow;
import io.floe.domain.CatalogName;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/** Repos in memory: at most one live repo per name (case-insensitive) in an org. */
public final class InMemoryRepoStore implements RepoStore {
  private final InMemoryDatabase db;

  public InMemoryRepoStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void insert(Repo repo) {
    db.statement(() -> {
      if (db.repos.containsKey(repo.id())) {
        throw InMemoryDatabase.uniqueViolation("repos_pkey");
      }
      if (repo.deletedAt().isEmpty() && findLive(repo.orgId(), repo.name()).isPresent()) {
        throw InMemoryDatabase.uniqueViolation("repos_live_name");
      }
      db.repos.put(repo.id(), LifecycleRow.live(repo));
    });
  }

  @Override
  public Optional<Repo> findLive(UUID orgId, CatalogName name) {
    return db.statement(() -> rows(orgId).map(LifecycleRow::owner)
        .filter(repo -> repo.deletedAt().isEmpty() && repo.name().key().equals(name.key()))
        .findFirst());
  }

  @Override
  public List<Repo> listLive(UUID orgId) {
    return db.statement(() -> rows(orgId).map(LifecycleRow::owner)
        .filter(repo -> repo.deletedAt().isEmpty())
        .sorted(Comparator.comparing(repo -> repo.name().key()))
        .toList());
  }

  @Override
  public List<DeletedRepo> listRestorable(UUID orgId, Instant now) {
    return db.statement(() -> restorable(orgId, now)
        .sorted(Comparator.comparing((DeletedRepo deleted) -> deleted.repo().name().key())
            .thenComparing(NEWEST_DELETE_FIRST))
        .toList());
  }

  @Override
  public Optional<DeletedRepo> findRestorable(UUID orgId, CatalogName name, Instant now) {
    return db.statement(() -> restorable(orgId, now)
        .filter(deleted -> deleted.repo().name().key().equals(name.key()))
        .min(NEWEST_DELETE_FIRST));
  }

  @Override
  public void describe(UUID repoId, Optional<String> description) {
    db.statement(() -> db.repos.get(repoId).ifPresent(row -> {
      Repo repo = row.owner();
      db.repos.put(repoId, new LifecycleRow<>(new Repo(repo.id(), repo.orgId(), repo.name(),
          repo.location(), description, repo.createdAt(), repo.deletedAt()),
          row.purgeAfter(), row.retainData(), row.nameReleasedAt(), row.cleanupAttempts(),
          row.cleanupObjectsDeleted(), row.cleanupLastError()));
    }));
  }

  @Override
  public void markRestored(UUID repoId) {
    db.statement(() -> db.repos.get(repoId).ifPresent(row -> {
      Repo repo = row.owner();
      db.repos.put(repoId, new LifecycleRow<>(new Repo(repo.id(), repo.orgId(), repo.name(),
          repo.location(), repo.description(), repo.createdAt(), Optional.empty()),
          Optional.empty(), row.retainData(), row.nameReleasedAt(), row.cleanupAttempts(),
          row.cleanupObjectsDeleted(), row.cleanupLastError()));
    }));
  }

  private static final Comparator<DeletedRepo> NEWEST_DELETE_FIRST = Comparator.comparing(
      (DeletedRepo deleted) -> deleted.repo().deletedAt().orElseThrow()).reversed();

  private Stream<DeletedRepo> restorable(UUID orgId, Instant now) {
    return rows(orgId)
        .filter(row -> row.owner().deletedAt().isPresent()
            && row.purgeAfter().orElseThrow().isAfter(now))
        .map(row -> new DeletedRepo(row.owner(), row.purgeAfter().orElseThrow()));
  }

  private Stream<LifecycleRow<Repo>> rows(UUID orgId) {
    return db.repos.values().stream().filter(row -> row.owner().orgId().equals(orgId));
  }
}
