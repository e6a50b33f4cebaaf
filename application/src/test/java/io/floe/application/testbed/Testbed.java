package io.floe.application.testbed;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.IdempotencyKey;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.RepoVersions;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.port.out.inmemory.InMemoryBuckets;
import io.floe.application.port.out.inmemory.InMemoryMetadataFileIo;
import io.floe.application.port.out.inmemory.InMemoryPersistence;
import io.floe.application.port.out.inmemory.InMemoryResultCodec;
import io.floe.application.port.out.inmemory.MovableClock;
import io.floe.application.port.out.inmemory.NoStorageAccess;
import io.floe.application.port.out.inmemory.SequentialIds;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.lifecycle.CreationRepair;
import io.floe.application.service.lifecycle.OrgNames;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.lifecycle.PrefixOwnerCreation;
import io.floe.application.service.repo.tables.RepoNamespaces;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import io.floe.domain.Membership;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Principal;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.floe.domain.Role;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.ImmutableSQLViewRepresentation;
import org.apache.iceberg.view.ImmutableViewVersion;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewVersion;

/**
 * An org on the in-memory fakes, ready for a service test: a clock that moves only when told
 * (objects written to its buckets are last modified by it too), predictable ids, one S3 bucket
 * ({@code s3://data}) as its default, and its first admin. Helpers add namespaces, tables and
 * views (with real Iceberg metadata files), members and grants, and build the shared
 * collaborators services are wired with.
 */
public final class Testbed {
  /** How long an idempotency key's result is replayed. */
  public static final Duration KEY_LIFETIME = Duration.ofMinutes(30);
  /** The schema of every table a testbed creates. */
  public static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  public final MovableClock clock = new MovableClock();
  public final SequentialIds ids = new SequentialIds();
  public final InMemoryPersistence store = new InMemoryPersistence(clock);
  public final InMemoryBuckets storage = new InMemoryBuckets(clock);
  public final InMemoryMetadataFileIo metadataIo = new InMemoryMetadataFileIo();
  public final InMemoryResultCodec codec = new InMemoryResultCodec();
  public final MetadataFiles files = new MetadataFiles(metadataIo);
  public final Org org;
  public final BucketConfig bucket;
  public final OrgContext admin;

  public Testbed() {
    org = new Org(ids.newId(), new OrgName("acme"), true);
    store.orgs().insertOrg(org);
    bucket = new BucketConfig(ids.newId(), org.id(), new CatalogName("main"), StoragePlatform.S3,
        "data", StoragePath.root(), Optional.empty(), Optional.empty(), false,
        BucketCredentials.ambient(), true);
    store.orgs().insertBucket(bucket);
    admin = member("admin", Role.ADMIN);
  }

  /** A new user of the org with a role, acting for a request without an idempotency key. */
  public OrgContext member(String name, Role role) {
    Principal user = new Principal(ids.newId(), Principal.Kind.USER, name);
    store.identities().createMember(user, org.id(), role, Optional.empty());
    return new OrgContext(new Caller(user), org, new Membership(org.id(), user.id(), role));
  }

  /** A new team of the org. */
  public Principal team(String name) {
    Principal team = new Principal(ids.newId(), Principal.Kind.TEAM, name);
    store.identities().createMember(team, org.id(), Role.MEMBER, Optional.empty());
    return team;
  }

  /** The same caller acting for a request sent with an idempotency key. */
  public static OrgContext withKey(OrgContext context, String key, String fingerprint) {
    return context.on(new RequestInfo("request-" + key,
        Optional.of(new IdempotencyKey(key, fingerprint))));
  }

  public AccessPolicy policy() {
    return new AccessPolicy(store.grants());
  }

  public ChangePublisher publisher() {
    return new ChangePublisher(store.idempotency(), store.audit(), codec, store.unitOfWork(), clock,
        KEY_LIFETIME);
  }

  public CatalogLocator locator() {
    return new CatalogLocator(store.orgs(), store.namespaces(), store.objects(), policy(),
        repoNamespaces());
  }

  /** Where new tables and views go, as the server places them: claims on the testbed's buckets. */
  public TablePlacement placement() {
    return new TablePlacement(store.orgs(), claimer(), ids, storage);
  }

  public PrefixClaimer claimer() {
    return new PrefixClaimer(store.orgs(), store.claims(), storage);
  }

  /** New catalog entries, tables and views alike. */
  public CatalogEntries entries() {
    return new CatalogEntries(store.objects(), clock);
  }

  /** The one mover of table and view pointers, over the catalog's rows. */
  public CatalogCommitter committer() {
    return new CatalogCommitter(store.pointers(), store.unitOfWork(), publisher(), clock);
  }

  /** Storage access for engines where buckets vend no credentials and sign nothing. */
  public TableStorageAccess storageAccess() {
    return storageAccess(NoStorageAccess.vendor(), NoStorageAccess.signer());
  }

  public TableStorageAccess storageAccess(CredentialVendor vendor, RequestSigner signer) {
    return new TableStorageAccess(vendor, signer, policy());
  }

  /** What puts things right after a crash in a creation's middle. */
  public CreationRepair creationRepair() {
    return new CreationRepair(store.pendingCreations(), store.claims(), store.names(),
        store.orgs(), storage, store.unitOfWork());
  }

  /**
   * The crash-safe creation of namespaces and repos (name, claim, marker, row); {@code probe}
   * stands for a crash between two steps.
   */
  public PrefixOwnerCreation prefixOwnerCreation(LifecycleProbe probe) {
    return new PrefixOwnerCreation(new OrgNames(store.names()), claimer(),
        store.pendingCreations(), creationRepair(), store.unitOfWork(), publisher(), probe);
  }

  /**
   * The versions of the org's repos as namespaces. A testbed's org has no repo, so neither their
   * history nor their tables are ever read.
   */
  public RepoNamespaces repoNamespaces() {
    RepoVersions noHistory = (bucket, prefix, ref) -> {
      throw new IllegalStateException("a testbed's org has no repo to read");
    };
    return new RepoNamespaces(store.repos(), store.orgs(), noHistory, new NoRepositories(),
        policy());
  }

  /** The Icechunk repositories of an org without repos: asking for one is a test's mistake. */
  private static final class NoRepositories implements IcechunkRepositories {
    @Override
    public void create(BucketConfig bucket, StoragePath prefix, String markerName) {
      throw none();
    }

    @Override
    public RepoRefs refs(BucketConfig bucket, StoragePath prefix) {
      throw none();
    }

    @Override
    public List<RepoCommit> log(BucketConfig bucket, StoragePath prefix, String ref, int limit) {
      throw none();
    }

    @Override
    public RepoNode node(BucketConfig bucket, StoragePath prefix, String ref, String path) {
      throw none();
    }

    @Override
    public RepoTables tables(BucketConfig bucket, StoragePath prefix, String ref) {
      throw none();
    }

    private static IllegalStateException none() {
      return new IllegalStateException("a testbed's org has no repo");
    }
  }

  /** A live namespace at {@code <random>_<name>} on the default bucket, without claim or marker. */
  public Namespace namespace(String name, Visibility visibility) {
    Namespace namespace = new Namespace(ids.newId(), org.id(), new CatalogName(name), bucket.id(),
        new StoragePath(UUID.randomUUID().toString().substring(0, 8) + "_" + name), Map.of(),
        Optional.empty(), Map.of(), visibility, clock.instant(), clock.instant(),
        Optional.empty());
    store.namespaces().insert(namespace);
    return namespace;
  }

  /** A table in the namespace whose first metadata file is written. */
  public CatalogObject table(Namespace namespace, String name) {
    StoragePath path = namespace.prefix().resolve(name);
    TableMetadata metadata = files.writeTable(bucket, TableMetadata.newTableMetadata(SCHEMA,
        PartitionSpec.unpartitioned(), SortOrder.unsorted(), bucket.uriOf(path), Map.of()),
        Optional.empty());
    return entry(namespace, name, metadata.metadataFileLocation());
  }

  /** A table whose pointer is {@code metadataLocation}, with no file behind it. */
  public CatalogObject entry(Namespace namespace, String name, String metadataLocation) {
    CatalogObject table = new CatalogObject(ids.newId(), namespace.id(), new TableName(name),
        CatalogObject.Kind.TABLE, metadataLocation,
        new StorageLocation(bucket.id(), namespace.prefix().resolve(name)), false,
        clock.instant(), clock.instant());
    store.objects().insert(table);
    return table;
  }

  /** A view in the namespace whose first metadata file is written ({@code select 1}). */
  public CatalogObject view(Namespace namespace, String name) {
    StoragePath path = namespace.prefix().resolve(name);
    ViewMetadata metadata = files.writeView(bucket, ViewMetadata.builder()
        .setLocation(bucket.uriOf(path))
        .setCurrentVersion(viewVersion(1, namespace, "select 1"), SCHEMA)
        .build(), Optional.empty());
    CatalogObject view = new CatalogObject(ids.newId(), namespace.id(), new TableName(name),
        CatalogObject.Kind.VIEW, metadata.metadataFileLocation(),
        new StorageLocation(bucket.id(), path), false, clock.instant(), clock.instant());
    store.objects().insert(view);
    return view;
  }

  /** A version of a view: its SQL in Spark's dialect, over the namespace. */
  public ViewVersion viewVersion(int id, Namespace namespace, String sql) {
    return ImmutableViewVersion.builder().versionId(id).schemaId(0)
        .timestampMillis(clock.millis())
        .defaultNamespace(TableIdentifier.of(namespace.name().value(), "view").namespace())
        .putSummary("operation", id == 1 ? "create" : "replace")
        .addRepresentations(ImmutableSQLViewRepresentation.builder().sql(sql).dialect("spark")
            .build())
        .build();
  }

  /** Where the table's pointer is now. */
  public String pointer(Namespace namespace, CatalogObject table) {
    return store.objects().find(org.id(), namespace.name(), table.name()).orElseThrow()
        .metadataLocation();
  }

  /** The table's metadata as its pointer has it now. */
  public TableMetadata current(Namespace namespace, CatalogObject table) {
    return files.readTable(bucket, pointer(namespace, table));
  }

  /** The org's audit log, oldest entry first (the log itself answers newest first). */
  public List<AuditEntry> auditLog() {
    List<AuditEntry> entries = new ArrayList<>(
        store.audit().list(org.id(), AuditQuery.all()).entries());
    Collections.reverse(entries);
    return entries;
  }

  /** Whether anything in the org holds the name; asking leaves the registry as it was. */
  public boolean nameIsHeld(String name) {
    CatalogName asked = new CatalogName(name);
    boolean held = store.names().reserve(org.id(), asked, PrefixClaim.OwnerKind.REPO,
        UUID.randomUUID()).isPresent();
    if (!held) {
      store.names().release(org.id(), asked);
    }
    return held;
  }

  public void grant(UUID principalId, Namespace namespace, Optional<CatalogObject> table,
      Action action) {
    store.grants().save(new GrantStore.Entry(ids.newId(), org.id(), new Grant(principalId,
        namespace.id(), table.map(CatalogObject::id), action), clock.instant()));
  }
}
