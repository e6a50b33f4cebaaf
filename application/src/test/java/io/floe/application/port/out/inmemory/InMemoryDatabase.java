package io.floe.application.port.out.inmemory;

import io.floe.application.model.AuditEntry;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.domain.Action;
import io.floe.domain.ApiToken;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Principal;
import io.floe.domain.Repo;
import io.floe.domain.Role;
import io.floe.domain.WebSession;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The rows every in-memory store reads and writes: one map per table of the catalog's schema,
 * holding immutable records. A transaction holds one lock for the whole database (so it is
 * serializable, and a row lock is never needed on top of it) and restores every table when it
 * fails, nested transactions included: what the fakes of all ports wrote rolls back together.
 * Stores call {@link #statement} for each read or write, which is atomic on its own outside a
 * transaction, as a single SQL statement is.
 */
public final class InMemoryDatabase implements UnitOfWork {
  /** A table: a map from primary key to row that a transaction can put back as it was. */
  static final class Table<K, V> {
    private Map<K, V> rows = new HashMap<>();

    Optional<V> get(K key) {
      return Optional.ofNullable(rows.get(key));
    }

    void put(K key, V row) {
      rows.put(key, row);
    }

    boolean remove(K key) {
      return rows.remove(key) != null;
    }

    boolean containsKey(K key) {
      return rows.containsKey(key);
    }

    Map<K, V> rows() {
      return rows;
    }

    List<V> values() {
      return List.copyOf(rows.values());
    }
  }

  record OrgRow(Org org, Instant createdAt) {}

  record PrincipalRow(Principal principal, Optional<String> externalId,
      Optional<UUID> homeOrgId) {}

  record MembershipKey(UUID orgId, UUID principalId) {}

  record TokenRow(ApiToken token, Optional<String> description, Optional<Instant> lastUsedAt) {}

  record TeamMember(UUID teamId, UUID memberId) {}

  record NameKey(UUID orgId, String key) {}

  record ClaimKey(UUID bucketId, String prefix) {}

  record ClaimRow(PrefixClaim claim, Optional<UUID> droppedFromNamespace) {}

  record GrantRow(UUID id, UUID orgId, UUID principalId, UUID namespaceId,
      Optional<UUID> tableId, Action action, Instant createdAt) {}

  record IdempotencyKey(UUID orgId, UUID principalId, String key) {}

  record IdempotencyRow(IdempotencyStore.Recorded recorded, Instant expiresAt) {}

  /** An audit entry and, for a namespace's, table's or view's change, their ids. */
  record AuditRow(UUID orgId, AuditEntry entry, Optional<UUID> namespaceId,
      Optional<UUID> objectId) {}

  /**
   * A namespace's or repo's row with the soft-delete columns both tables share. The owner record
   * carries {@code deleted_at} itself.
   */
  record LifecycleRow<T>(T owner, Optional<Instant> purgeAfter, boolean retainData,
      Optional<Instant> nameReleasedAt, int cleanupAttempts, long cleanupObjectsDeleted,
      Optional<String> cleanupLastError) {
    static <T> LifecycleRow<T> live(T owner) {
      return new LifecycleRow<>(owner, Optional.empty(), false, Optional.empty(), 0, 0,
          Optional.empty());
    }

    LifecycleRow<T> withOwner(T changed) {
      return new LifecycleRow<>(changed, purgeAfter, retainData, nameReleasedAt, cleanupAttempts,
          cleanupObjectsDeleted, cleanupLastError);
    }
  }

  private final List<Table<?, ?>> tables = new ArrayList<>();
  final Table<UUID, OrgRow> orgs = table();
  final Table<UUID, BucketConfig> buckets = table();
  final Table<UUID, PrincipalRow> principals = table();
  final Table<MembershipKey, Role> memberships = table();
  final Table<UUID, TokenRow> tokens = table();
  final Table<TeamMember, TeamMember> teamMembers = table();
  final Table<NameKey, NameRegistry.Holder> names = table();
  final Table<ClaimKey, ClaimRow> claims = table();
  final Table<UUID, LifecycleRow<Namespace>> namespaces = table();
  final Table<UUID, CatalogObject> objects = table();
  final Table<UUID, LifecycleRow<Repo>> repos = table();
  final Table<UUID, GrantRow> grants = table();
  final Table<IdempotencyKey, IdempotencyRow> idempotency = table();
  final Table<UUID, PendingCreationStore.Pending> pending = table();
  final Table<Long, AuditRow> auditLog = table();
  final Table<UUID, WebSession> webSessions = table();

  private final ReentrantLock lock = new ReentrantLock();
  private final Clock clock;

  /** A database whose own clock (for columns that default to {@code now()}) is the system's. */
  public InMemoryDatabase() {
    this(Clock.systemUTC());
  }

  public InMemoryDatabase(Clock clock) {
    this.clock = clock;
  }

  @Override
  public <T> T inTransaction(Supplier<T> work) {
    lock.lock();
    List<Map<?, ?>> before = snapshot();
    try {
      return work.get();
    } catch (RuntimeException | Error e) {
      // An Error too: a crash simulated inside a transaction must not leave half of it behind.
      restore(before);
      throw e;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the calling thread is inside a transaction (and so holds every row). */
  public boolean inTransaction() {
    return lock.isHeldByCurrentThread();
  }

  /** One statement: part of the caller's transaction, or atomic on its own. */
  <T> T statement(Supplier<T> work) {
    return inTransaction() ? work.get() : inTransaction(work);
  }

  void statement(Runnable work) {
    statement(() -> {
      work.run();
      return null;
    });
  }

  /** The database's own time, for columns that default to {@code now()}. */
  Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  /** The error a unique index raises, named as PostgreSQL names the index. */
  static IllegalStateException uniqueViolation(String index) {
    return new IllegalStateException(
        "duplicate key value violates unique constraint \"" + index + "\"");
  }

  private <K, V> Table<K, V> table() {
    Table<K, V> table = new Table<>();
    tables.add(table);
    return table;
  }

  private List<Map<?, ?>> snapshot() {
    List<Map<?, ?>> copies = new ArrayList<>();
    for (Table<?, ?> table : tables) {
      copies.add(new HashMap<>(table.rows));
    }
    return copies;
  }

  @SuppressWarnings("unchecked")
  private void restore(List<Map<?, ?>> copies) {
    for (int i = 0; i < tables.size(); i++) {
      ((Table<Object, Object>) tables.get(i)).rows = (Map<Object, Object>) copies.get(i);
    }
  }
}
