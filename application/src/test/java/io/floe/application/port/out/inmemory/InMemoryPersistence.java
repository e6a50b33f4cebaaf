package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.contract.PersistencePorts;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Clock;

/**
 * The in-memory implementation of every persistence port, all over one {@link InMemoryDatabase}:
 * what service tests wire their services with, and what the port contracts run on first.
 */
public final class InMemoryPersistence implements PersistencePorts {
  private final InMemoryDatabase db;
  private final InMemoryOrgStore orgs;
  private final InMemoryPrincipalStore principals;
  private final InMemoryIdentityDirectory identities;
  private final InMemoryOrgMembershipDirectory memberships;
  private final InMemoryGrantStore grants;
  private final InMemoryCatalogObjectStore objects;
  private final InMemoryNamespaceStore namespaces;
  private final InMemoryNamespaceLifecycleStore namespaceLifecycle;
  private final InMemoryNamespaceDirectory namespaceDirectory;
  private final InMemorySoftDeleteStore<Namespace> namespaceDeletes;
  private final InMemoryNameRegistry names;
  private final InMemoryPrefixClaimStore claims;
  private final InMemoryPendingCreationStore pendingCreations;
  private final InMemoryDroppedTableClaimStore droppedTableClaims;
  private final InMemoryRepoStore repos;
  private final InMemorySoftDeleteStore<Repo> repoDeletes;
  private final InMemoryIdempotencyStore idempotency;
  private final InMemoryRepoCommitLocks repoCommitLocks;
  private final InMemoryAuditLog audit;
  private final InMemoryChangeFeed changeFeed;
  private final InMemoryWebSessionStore webSessions;
  private final InMemoryMaintenanceJobStore maintenanceJobs = new InMemoryMaintenanceJobStore();

  public InMemoryPersistence() {
    this(Clock.systemUTC());
  }

  /** @param clock the database's own clock, for rows stamped with the time they were written */
  public InMemoryPersistence(Clock clock) {
    this.db = new InMemoryDatabase(clock);
    this.orgs = new InMemoryOrgStore(db);
    this.principals = new InMemoryPrincipalStore(db);
    this.identities = new InMemoryIdentityDirectory(db);
    this.memberships = new InMemoryOrgMembershipDirectory(db);
    this.grants = new InMemoryGrantStore(db);
    this.objects = new InMemoryCatalogObjectStore(db);
    this.namespaces = new InMemoryNamespaceStore(db);
    this.namespaceLifecycle = new InMemoryNamespaceLifecycleStore(db);
    this.namespaceDirectory = new InMemoryNamespaceDirectory(db);
    this.namespaceDeletes = InMemorySoftDeleteStore.namespaces(db);
    this.names = new InMemoryNameRegistry(db);
    this.claims = new InMemoryPrefixClaimStore(db);
    this.pendingCreations = new InMemoryPendingCreationStore(db);
    this.droppedTableClaims = new InMemoryDroppedTableClaimStore(db);
    this.repos = new InMemoryRepoStore(db);
    this.repoDeletes = InMemorySoftDeleteStore.repos(db);
    this.idempotency = new InMemoryIdempotencyStore(db);
    this.repoCommitLocks = new InMemoryRepoCommitLocks(db);
    this.audit = new InMemoryAuditLog(db);
    this.changeFeed = new InMemoryChangeFeed(db);
    this.webSessions = new InMemoryWebSessionStore(db);
  }

  /** A transaction holds the whole database: another one waits rather than skipping rows. */
  @Override
  public boolean locksRows() {
    return false;
  }

  @Override
  public InMemoryDatabase unitOfWork() {
    return db;
  }

  @Override
  public InMemoryOrgStore orgs() {
    return orgs;
  }

  @Override
  public InMemoryPrincipalStore principals() {
    return principals;
  }

  @Override
  public InMemoryIdentityDirectory identities() {
    return identities;
  }

  @Override
  public InMemoryOrgMembershipDirectory memberships() {
    return memberships;
  }

  @Override
  public InMemoryGrantStore grants() {
    return grants;
  }

  @Override
  public InMemoryCatalogObjectStore objects() {
    return objects;
  }

  @Override
  public InMemoryCatalogObjectStore pointers() {
    return objects;
  }

  @Override
  public InMemoryNamespaceStore namespaces() {
    return namespaces;
  }

  @Override
  public InMemoryNamespaceLifecycleStore namespaceLifecycle() {
    return namespaceLifecycle;
  }

  @Override
  public InMemoryNamespaceDirectory namespaceDirectory() {
    return namespaceDirectory;
  }

  @Override
  public InMemorySoftDeleteStore<Namespace> namespaceDeletes() {
    return namespaceDeletes;
  }

  @Override
  public InMemoryNameRegistry names() {
    return names;
  }

  @Override
  public InMemoryPrefixClaimStore claims() {
    return claims;
  }

  @Override
  public InMemoryPendingCreationStore pendingCreations() {
    return pendingCreations;
  }

  @Override
  public InMemoryDroppedTableClaimStore droppedTableClaims() {
    return droppedTableClaims;
  }

  @Override
  public InMemoryRepoStore repos() {
    return repos;
  }

  @Override
  public InMemoryRepoCommitLocks repoCommitLocks() {
    return repoCommitLocks;
  }

  @Override
  public InMemorySoftDeleteStore<Repo> repoDeletes() {
    return repoDeletes;
  }

  @Override
  public InMemoryIdempotencyStore idempotency() {
    return idempotency;
  }

  @Override
  public InMemoryAuditLog audit() {
    return audit;
  }

  /** The change feed over this store's audit log. */
  @Override
  public InMemoryChangeFeed changeFeed() {
    return changeFeed;
  }

  @Override
  public InMemoryWebSessionStore webSessions() {
    return webSessions;
  }

  @Override
  public InMemoryMaintenanceJobStore maintenanceJobs() {
    return maintenanceJobs;
  }
}
