package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.TestDatabases;
import io.floe.adapters.persistence.jooq.JooqCatalogObjectStore;
import io.floe.adapters.persistence.jooq.JooqPersistencePorts;
import io.floe.adapters.persistence.jooq.JooqPrincipalStore;
import io.floe.application.port.out.AuditLog;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.IdentityDirectory;
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
import io.floe.application.port.out.contract.PersistenceContracts;
import io.floe.application.port.out.contract.PersistencePorts;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Namespace;
import io.floe.domain.Principal;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Every persistence port's contract through the caches the server puts in front of the SQL
 * adapter: a cache may save round trips, never change an answer.
 */
class CachedPostgresStoreTest extends PersistenceContracts {
  @Override
  protected PersistencePorts open() {
    return new CachedPorts(JooqPersistencePorts.open(TestDatabases.embeddedServer()));
  }

  /**
   * The caching principal store with each token use written at once instead of in the next batch:
   * so the contract checks the batch's statement keeps the once-a-minute rule.
   */
  private record FlushedTokenUses(PrincipalStore store, TokenUseRecorder uses)
      implements PrincipalStore {
    @Override
    public void touchToken(UUID tokenId, Instant usedAt) {
      store.touchToken(tokenId, usedAt);
      uses.flush();
    }

    @Override
    public void insertPrincipal(Principal principal) {
      store.insertPrincipal(principal);
    }

    @Override
    public Optional<Principal> findPrincipal(UUID id) {
      return store.findPrincipal(id);
    }

    @Override
    public void insertMembership(Membership membership) {
      store.insertMembership(membership);
    }

    @Override
    public Optional<Membership> findMembership(UUID orgId, UUID principalId) {
      return store.findMembership(orgId, principalId);
    }

    @Override
    public void insertToken(ApiToken token) {
      store.insertToken(token);
    }

    @Override
    public Optional<ApiToken> findTokenByHash(String secretHash) {
      return store.findTokenByHash(secretHash);
    }
  }

  /** The SQL adapter with the server's caches over the ports it caches. */
  private static final class CachedPorts implements PersistencePorts {
    private final JooqPersistencePorts rows;
    private final CacheInvalidations invalidations;
    private final TokenUseRecorder tokenUses;
    private final OrgStore orgs;
    private final PrincipalStore principals;
    private final GrantStore grants;
    private final CachingNamespaceStore namespaces;
    private final JooqCatalogObjectStore objectRows;
    private final CatalogObjectStore objects;

    CachedPorts(JooqPersistencePorts rows) {
      this.rows = rows;
      this.invalidations = CacheInvalidations.start(rows.unitOfWork());
      JooqPrincipalStore principalRows = new JooqPrincipalStore(rows.unitOfWork());
      this.tokenUses = new TokenUseRecorder(principalRows::touchTokens);
      this.orgs = new CachingOrgStore(rows.orgs(), invalidations);
      this.principals = new FlushedTokenUses(
          new CachingPrincipalStore(principalRows, invalidations, tokenUses), tokenUses);
      this.grants = new CachingGrantStore(rows.grants(), invalidations);
      this.namespaces = new CachingNamespaceStore(rows.namespaces(), invalidations);
      // The rows of tables and views written through the store that tells the pointer cache.
      this.objectRows = new JooqCatalogObjectStore(rows.unitOfWork(), rows.cipher(),
          invalidations.pointerWrites());
      this.objects = new CachingCatalogObjectStore(objectRows, namespaces, orgs,
          invalidations.pointers());
      awaitPointersServed(invalidations);
    }

    /** The contracts run against the cache of pointers, once it serves them. */
    private static void awaitPointersServed(CacheInvalidations invalidations) {
      try {
        CachedServer.await(invalidations::pointersServed, "the cached ports serve pointers");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public UnitOfWork unitOfWork() {
      return rows.unitOfWork();
    }

    @Override
    public OrgStore orgs() {
      return orgs;
    }

    @Override
    public PrincipalStore principals() {
      return principals;
    }

    @Override
    public IdentityDirectory identities() {
      return rows.identities();
    }

    @Override
    public OrgMembershipDirectory memberships() {
      return rows.memberships();
    }

    @Override
    public GrantStore grants() {
      return grants;
    }

    @Override
    public CatalogObjectStore objects() {
      return objects;
    }

    @Override
    public MetadataPointers pointers() {
      return objectRows;
    }

    @Override
    public NamespaceStore namespaces() {
      return namespaces;
    }

    @Override
    public NamespaceLifecycleStore namespaceLifecycle() {
      return rows.namespaceLifecycle();
    }

    @Override
    public NamespaceDirectory namespaceDirectory() {
      return rows.namespaceDirectory();
    }

    @Override
    public SoftDeleteStore<Namespace> namespaceDeletes() {
      return rows.namespaceDeletes();
    }

    @Override
    public NameRegistry names() {
      return rows.names();
    }

    @Override
    public PrefixClaimStore claims() {
      return rows.claims();
    }

    @Override
    public PendingCreationStore pendingCreations() {
      return rows.pendingCreations();
    }

    @Override
    public DroppedTableClaimStore droppedTableClaims() {
      return rows.droppedTableClaims();
    }

    @Override
    public RepoStore repos() {
      return rows.repos();
    }

    @Override
    public SoftDeleteStore<Repo> repoDeletes() {
      return rows.repoDeletes();
    }

    @Override
    public RepoCommitLocks repoCommitLocks() {
      return rows.repoCommitLocks();
    }

    @Override
    public IdempotencyStore idempotency() {
      return rows.idempotency();
    }

    /** Never cached: entries are only appended and listed, and a listing must show the newest. */
    @Override
    public AuditLog audit() {
      return rows.audit();
    }

    @Override
    public ChangeFeed changeFeed() {
      return rows.changeFeed();
    }

    /** Never cached: a session ended, or whose token was revoked, must not open the next page. */
    @Override
    public WebSessionStore webSessions() {
      return rows.webSessions();
    }

    @Override
    public io.floe.application.port.out.MaintenanceJobStore maintenanceJobs() {
      return rows.maintenanceJobs();
    }

    @Override
    public void close() {
      tokenUses.close();
      invalidations.close();
      rows.close();
    }
  }
}
