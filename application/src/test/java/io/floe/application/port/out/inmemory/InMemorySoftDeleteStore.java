package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.LifecycleRow;
import io.floe.application.port.out.inmemory.InMemoryDatabase.Table;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The soft-delete lifecycle over the in-memory namespaces or repos. No other pass can hold an
 * owner while this one's transaction runs, so {@link #lockForCleanup} never skips one.
 *
 * @param <T> the owner
 */
public final class InMemorySoftDeleteStore<T> implements SoftDeleteStore<T> {
  private final InMemoryDatabase db;
  private final Table<UUID, LifecycleRow<T>> table;
  private final Function<T, UUID> orgId;
  private final Function<T, Optional<Instant>> deletedAt;
  /** The owner as deleted at an instant: what its row then reads. */
  private final BiFunction<T, Instant, T> markedDeleted;
  /** What goes with a purged owner's row, as foreign keys' cascades take it. */
  private final Consumer<UUID> cascade;

  private InMemorySoftDeleteStore(InMemoryDatabase db, Table<UUID, LifecycleRow<T>> table,
      Function<T, UUID> orgId, Function<T, Optional<Instant>> deletedAt,
      BiFunction<T, Instant, T> markedDeleted, Consumer<UUID> cascade) {
    this.db = db;
    this.table = table;
    this.orgId = orgId;
    this.deletedAt = deletedAt;
    this.markedDeleted = markedDeleted;
    this.cascade = cascade;
  }

  public static InMemorySoftDeleteStore<Namespace> namespaces(InMemoryDatabase db) {
    // A namespace's row records when it last changed; a delete is a change.
    return new InMemorySoftDeleteStore<>(db, db.namespaces, Namespace::orgId,
        Namespace::deletedAt, (ns, when) -> new Namespace(ns.id(), ns.orgId(), ns.name(),
            ns.bucketId(), ns.prefix(), ns.properties(), ns.description(), ns.metadata(),
            ns.visibility(), ns.createdAt(), when, Optional.of(when)),
        // Grants on a namespace go with it.
        id -> db.grants.rows().values().removeIf(grant -> grant.namespaceId().equals(id)));
  }

  public static InMemorySoftDeleteStore<Repo> repos(InMemoryDatabase db) {
    return new InMemorySoftDeleteStore<>(db, db.repos, Repo::orgId, Repo::deletedAt,
        (repo, when) -> new Repo(repo.id(), repo.orgId(), repo.name(), repo.location(),
            repo.description(), repo.createdAt(), Optional.of(when)), id -> { });
  }

  @Override
  public void markDeleted(UUID id, Instant now, Instant purgeAfter, boolean retainData,
      boolean nameReleased) {
    update(id, row -> deletedAt.apply(row.owner()).isPresent() ? row
        : new LifecycleRow<>(markedDeleted.apply(row.owner(), now),
            Optional.of(purgeAfter), retainData,
            nameReleased ? Optional.of(now) : Optional.empty(), row.cleanupAttempts(),
            row.cleanupObjectsDeleted(), row.cleanupLastError()));
  }

  @Override
  public List<UUID> dueForCleanup(Optional<UUID> org, Instant now, int limit) {
    return db.statement(() -> table.rows().entrySet().stream()
        .filter(entry -> isDeleted(entry.getValue())
            && !entry.getValue().purgeAfter().orElseThrow().isAfter(now))
        .filter(entry -> org.map(orgId.apply(entry.getValue().owner())::equals).orElse(true))
        .sorted(Comparator.comparing(entry -> entry.getValue().purgeAfter().orElseThrow()))
        .limit(limit)
        .map(entry -> entry.getKey())
        .toList());
  }

  @Override
  public Optional<Deleted<T>> lockForCleanup(UUID id) {
    return db.statement(() -> table.get(id).filter(this::isDeleted)
        .map(row -> new Deleted<>(row.owner(), row.purgeAfter().orElseThrow(),
            row.retainData(), row.nameReleasedAt().isPresent(), row.cleanupAttempts())));
  }

  @Override
  public void markNameReleased(UUID id, Instant now) {
    update(id, row -> new LifecycleRow<>(row.owner(), row.purgeAfter(), row.retainData(),
        Optional.of(now), row.cleanupAttempts(), row.cleanupObjectsDeleted(),
        row.cleanupLastError()));
  }

  @Override
  public void recordCleanupAttempt(UUID id, Instant now) {
    update(id, row -> new LifecycleRow<>(row.owner(), row.purgeAfter(), row.retainData(),
        row.nameReleasedAt(), row.cleanupAttempts() + 1, row.cleanupObjectsDeleted(),
        row.cleanupLastError()));
  }

  @Override
  public void recordCleanupProgress(UUID id, long objectsDeleted, Optional<String> error,
      Instant now) {
    update(id, row -> new LifecycleRow<>(row.owner(), row.purgeAfter(), row.retainData(),
        row.nameReleasedAt(), row.cleanupAttempts(),
        row.cleanupObjectsDeleted() + objectsDeleted, error));
  }

  @Override
  public void purge(UUID id) {
    db.statement(() -> {
      table.remove(id);
      cascade.accept(id);
    });
  }

  private boolean isDeleted(LifecycleRow<T> row) {
    return deletedAt.apply(row.owner()).isPresent();
  }

  private void update(UUID id, UnaryOperator<LifecycleRow<T>> change) {
    db.statement(() -> table.get(id).ifPresent(row -> table.put(id, change.apply(row))));
  }
}
