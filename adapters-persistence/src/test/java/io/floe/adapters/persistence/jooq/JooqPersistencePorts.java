package io.floe.adapters.persistence.jooq;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.application.port.out.AuditLog;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.port.out.MaintenanceJobStore;
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
import io.floe.application.port.out.WebSessionStore;
import io.floe.application.port.out.contract.PersistencePorts;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;

/** The SQL adapter of every persistence port, on one fresh database of a PostgreSQL server. */
public final class JooqPersistencePorts implements PersistencePorts {
  private final Database database;
  private final JooqCatalogObjectStore objects;
  private final SecretCipher cipher = TestDatabases.cipher();

  private JooqPersistencePorts(Database database) {
    this.database = database;
    this.objects = new JooqCatalogObjectStore(database, cipher);
  }

  /** Creates an empty database on the server, migrates it and opens the adapters on it. */
  public static JooqPersistencePorts open(DatabaseSettings server) {
    DatabaseSettings settings = TestDatabases.freshDatabase(server);
    // Opening twice proves the migrations are idempotent on an up-to-date schema.
    Database.open(settings, 2).close();
    return new JooqPersistencePorts(Database.open(settings, 12));
  }

  /** The key this database's bucket credentials are sealed with. */
  public SecretCipher cipher() {
    return cipher;
  }

  @Override
  public Database unitOfWork() {
    return database;
  }

  @Override
  public OrgStore orgs() {
    return new JooqOrgStore(database, cipher);
  }

  @Override
  public PrincipalStore principals() {
    return new JooqPrincipalStore(database);
  }

  @Override
  public IdentityDirectory identities() {
    return new JooqIdentityDirectory(database);
  }

  @Override
  public OrgMembershipDirectory memberships() {
    return new JooqOrgMembershipDirectory(database);
  }

  @Override
  public GrantStore grants() {
    return new JooqGrantStore(database);
  }

  @Override
  public JooqCatalogObjectStore objects() {
    return objects;
  }

  @Override
  public JooqCatalogObjectStore pointers() {
    return objects;
  }

  @Override
  public NamespaceStore namespaces() {
    return new JooqNamespaceStore(database);
  }

  @Override
  public NamespaceLifecycleStore namespaceLifecycle() {
    return new JooqNamespaceLifecycleStore(database);
  }

  @Override
  public NamespaceDirectory namespaceDirectory() {
    return new JooqNamespaceDirectory(database);
  }

  @Override
  public SoftDeleteStore<Namespace> namespaceDeletes() {
    return JooqSoftDeleteStore.namespaces(database);
  }

  @Override
  public NameRegistry names() {
    return new JooqNameRegistry(database);
  }

  @Override
  public PrefixClaimStore claims() {
    return new JooqPrefixClaimStore(database);
  }

  @Override
  public PendingCreationStore pendingCreations() {
    return new JooqPendingCreationStore(database);
  }

  @Override
  public DroppedTableClaimStore droppedTableClaims() {
    return new JooqDroppedTableClaimStore(database);
  }

  @Override
  public RepoStore repos() {
    return new JooqRepoStore(database);
  }

  @Override
  public RepoCommitLocks repoCommitLocks() {
    return new PostgresRepoCommitLocks(database);
  }

  @Override
  public SoftDeleteStore<Repo> repoDeletes() {
    return JooqSoftDeleteStore.repos(database);
  }

  @Override
  public IdempotencyStore idempotency() {
    return new JooqIdempotencyStore(database);
  }

  @Override
  public AuditLog audit() {
    return new JooqAuditLog(database);
  }

  @Override
  public ChangeFeed changeFeed() {
    return new JooqChangeFeed(database);
  }

  @Override
  public WebSessionStore webSessions() {
    return new JooqWebSessionStore(database);
  }

  @Override
  public MaintenanceJobStore maintenanceJobs() {
    return new JooqMaintenanceJobStore(database);
  }

  @Override
  public void close() {
    database.close();
  }
}
