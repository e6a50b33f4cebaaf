package io.floe.application.port.out.contract;

import io.floe.application.port.out.AuditLog;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.NamespaceDirectory;
import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgMembershipDirectory;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.RepoCommitLocks;
import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.port.out.WebSessionStore;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;

/**
 * Every persistence out-port of one backend, all over one database: what the contracts run on.
 * A backend is the in-memory fakes, or the SQL adapter on an embedded or an external PostgreSQL.
 */
public interface PersistencePorts extends AutoCloseable {
  UnitOfWork unitOfWork();

  OrgStore orgs();

  PrincipalStore principals();

  IdentityDirectory identities();

  OrgMembershipDirectory memberships();

  GrantStore grants();

  CatalogObjectStore objects();

  MetadataPointers pointers();

  NamespaceStore namespaces();

  NamespaceLifecycleStore namespaceLifecycle();

  NamespaceDirectory namespaceDirectory();

  SoftDeleteStore<Namespace> namespaceDeletes();

  NameRegistry names();

  PrefixClaimStore claims();

  PendingCreationStore pendingCreations();

  DroppedTableClaimStore droppedTableClaims();

  RepoStore repos();

  SoftDeleteStore<Repo> repoDeletes();

  RepoCommitLocks repoCommitLocks();

  IdempotencyStore idempotency();

  AuditLog audit();

  /** The change feed over {@link #audit()}'s entries. */
  ChangeFeed changeFeed();

  WebSessionStore webSessions();

  MaintenanceJobStore maintenanceJobs();

  /**
   * Whether a transaction locks single rows, so that another one skips the rows it holds where a
   * port says so ({@code SKIP LOCKED}). A backend that serializes whole transactions instead never
   * lets one meet a row another holds, and answers false: those cases are then skipped.
   */
  default boolean locksRows() {
    return true;
  }

  /** Releases the backend (its connections, its database); nothing by default. */
  @Override
  default void close() {}
}
