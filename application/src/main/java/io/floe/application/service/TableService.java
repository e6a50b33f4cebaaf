package io.floe.application.service;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.PageToken;
import io.floe.application.port.in.AccessDelegation;
import io.floe.application.port.in.IcebergTablesUseCase;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.ResourcePaths;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tables: server-chosen locations under the namespace's prefix, commits by compare-and-swap. */
public final class TableService implements IcebergTablesUseCase {
  private static final Logger LOG = LoggerFactory.getLogger(TableService.class);

  private final CatalogLocator locator;
  private final CatalogObjectStore objects;
  private final MetadataFiles files;
  private final TableCommitter committer;
  private final TablePlacement placement;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final CatalogObjectRenamer renamer;
  private final CredentialVendor vendor;
  private final RequestSigner signer;

  public TableService(CatalogLocator locator, CatalogObjectStore objects, MetadataFiles files,
      TablePlacement placement, UnitOfWork unitOfWork, IdGenerator ids, Clock clock,
      AccessPolicy policy) {
    this(locator, objects, files, placement, unitOfWork, ids, clock, policy,
        CredentialVendor.none(), RequestSigner.none());
  }

  public TableService(CatalogLocator locator, CatalogObjectStore objects, MetadataFiles files,
      TablePlacement placement, UnitOfWork unitOfWork, IdGenerator ids, Clock clock,
      AccessPolicy policy, CredentialVendor vendor, RequestSigner signer) {
    this.vendor = vendor;
    this.signer = signer;
    this.locator = locator;
    this.objects = objects;
    this.files = files;
    this.placement = placement;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.renamer = new CatalogObjectRenamer(locator, objects, unitOfWork, clock, policy);
    this.committer = new TableCommitter(objects, files, unitOfWork, clock);
  }

  @Override
  public ListTablesResponse list(OrgContext context, org.apache.iceberg.catalog.Namespace namespace,
      String pageToken, Integer pageSize) {
    Namespace found = locator.namespace(context, namespace);
    return CatalogListing.list(found, policy.tableScope(context, found), objects,
        CatalogObject.Kind.TABLE, namespace, pageToken, pageSize);
  }

  @Override
  public LoadTableResponse create(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, CreateTableRequest request) {
    return create(context, namespaceId, request, Set.of());
  }

  @Override
  public LoadTableResponse create(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, CreateTableRequest request,
      Set<AccessDelegation> delegation) {
    request.validate();
    Namespace namespace = locator.namespace(context, namespaceId);
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    requireFree(context, identifier);
    Map<String, String> properties = request.properties();
    String bucketOverride = properties.get(BUCKET_PROPERTY);
    if (request.stageCreate() && bucketOverride != null) {
      throw new BadRequestException("The '%s' property cannot be combined with a staged create "
          + "(create-table transaction)", BUCKET_PROPERTY);
    }
    UUID tableId = ids.newId();
    TablePlacement.Placed placed = bucketOverride == null
        ? placement.inNamespace(namespace, name)
        : placement.onOwnBucket(context, namespace, name, bucketOverride, tableId);
    TableLocations.requirePathProperties(placed.bucket(), placed.rootUri(), properties);
    TableMetadata metadata = TableMetadata.newTableMetadata(request.schema(),
        request.spec() != null ? request.spec() : PartitionSpec.unpartitioned(),
        request.writeOrder() != null ? request.writeOrder() : SortOrder.unsorted(),
        placed.rootUri(), properties);
    if (request.stageCreate()) {
      // The engine writes data files before the create commits: it needs access already.
      return withStorageAccess(context, identifier,
          LoadTableResponse.builder().withTableMetadata(metadata), placed.bucket(),
          placed.location().path(), Access.READ_WRITE, delegation);
    }
    TableMetadata written;
    try {
      // The claim comes first: it refuses a prefix that holds anything, the metadata included.
      written = unitOfWork.inTransaction(() -> {
        placed.claim().run();
        TableMetadata first = files.writeTable(placed.bucket(), metadata, Optional.empty());
        insert(tableId, namespace, name, CatalogObject.Kind.TABLE, first.metadataFileLocation(),
            placed, identifier);
        return first;
      });
    } catch (RuntimeException e) {
      placed.undo().accept(e);
      throw e;
    }
    return withStorageAccess(context, identifier,
        LoadTableResponse.builder().withTableMetadata(written), placed.bucket(),
        placed.location().path(), Access.READ_WRITE, delegation);
  }

  @Override
  public LoadedTable load(OrgContext context, TableIdentifier identifier, SnapshotMode mode) {
    return load(context, identifier, mode, Set.of());
  }

  @Override
  public LoadedTable load(OrgContext context, TableIdentifier identifier, SnapshotMode mode,
      Set<AccessDelegation> delegation) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.READ, table.namespace(), table.object());
    TableMetadata metadata = files.readTable(table.bucket(), table.object().metadataLocation());
    if (mode == SnapshotMode.REFS) {
      metadata = TableMetadata.buildFrom(metadata)
          .withMetadataLocation(metadata.metadataFileLocation())
          .suppressHistoricalSnapshots()
          .build();
    }
    return new LoadedTable(withStorageAccess(context, identifier,
        LoadTableResponse.builder().withTableMetadata(metadata), table.bucket(),
        table.object().location().path(), accessFor(context, table), delegation),
        table.object().metadataLocation());
  }

  @Override
  public String currentMetadataLocation(OrgContext context, TableIdentifier identifier) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.READ, table.namespace(), table.object());
    return table.object().metadataLocation();
  }

  @Override
  public LoadTableResponse commit(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    if (isCreate(request)) {
      return createFromStaged(context, identifier, request);
    }
    TableMetadata committed = committer.commit(
        List.of(UpdateTableRequest.create(identifier, request.requirements(), request.updates())),
        id -> writableTable(context, id)).get(0);
    return LoadTableResponse.builder().withTableMetadata(committed).build();
  }

  @Override
  public void commitTransaction(OrgContext context, CommitTransactionRequest request) {
    request.validate();
    for (UpdateTableRequest change : request.tableChanges()) {
      if (isCreate(change)) {
        throw new BadRequestException(
            "Creating table %s inside a multi-table transaction is not supported",
            change.identifier());
      }
    }
    committer.commit(request.tableChanges(), id -> writableTable(context, id));
  }

  @Override
  public void drop(OrgContext context, TableIdentifier identifier, boolean purgeRequested) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.WRITE, table.namespace(), table.object());
    if (!objects.delete(table.object().id())) {
      throw new NoSuchTableException("Table does not exist: %s", identifier);
    }
    // Files are never deleted here, purge or not: they stay until the namespace is cleaned up.
    LOG.info("dropped table {} (purge requested: {}; files kept at {})", identifier,
        purgeRequested, table.rootUri());
  }

  @Override
  public void rename(OrgContext context, RenameTableRequest request) {
    renamer.rename(context, locator.table(context, request.source()), request);
  }


  @Override
  public LoadTableResponse register(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, RegisterTableRequest request) {
    Namespace namespace = locator.namespace(context, namespaceId);
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    BucketConfig bucket = locator.bucket(namespace.bucketId());
    String namespaceUri = bucket.uriOf(namespace.prefix());
    // Only metadata inside the namespace's own prefix may be registered: the org owns it.
    TableLocations.requireWithin(bucket, namespaceUri, "metadata file", request.metadataLocation());
    if (!files.exists(bucket, request.metadataLocation())) {
      throw new BadRequestException("Metadata file does not exist: %s", request.metadataLocation());
    }
    TableMetadata metadata = files.readTable(bucket, request.metadataLocation());
    TableLocations.requireWithin(bucket, namespaceUri, metadata);
    StorageLocation location = new StorageLocation(bucket.id(),
        TableLocations.pathIn(bucket, metadata.location()));
    Optional<ResolvedObject> existing = locator.find(context, identifier);
    if (existing.isPresent()) {
      if (!request.overwrite() || existing.get().object().kind() != CatalogObject.Kind.TABLE) {
        throw alreadyExists(existing.get(), identifier);
      }
      ResolvedObject current = existing.get();
      if (!current.object().location().equals(location)) {
        throw new BadRequestException("Cannot overwrite table %s with metadata of a table at "
            + "another location (%s)", identifier, metadata.location());
      }
      if (!objects.swapPointer(current.object().id(), current.object().metadataLocation(),
          request.metadataLocation(), clock.instant())) {
        throw new CommitFailedException("Table %s changed while it was being re-registered",
            identifier);
      }
    } else {
      TablePlacement.Placed placed = TablePlacement.Placed.existing(bucket, location);
      requireUnused(placed);
      unitOfWork.inTransaction(() -> insert(ids.newId(), namespace, name,
          CatalogObject.Kind.TABLE, request.metadataLocation(), placed, identifier));
    }
    return LoadTableResponse.builder().withTableMetadata(metadata).build();
  }

  @Override
  public void reportMetrics(OrgContext context, TableIdentifier identifier,
      ReportMetricsRequest request) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.READ, table.namespace(), table.object());
    LOG.debug("metrics for {}.{}: {} {}", context.org().name(), identifier, request.reportType(),
        request.report());
  }

  @Override
  public LoadCredentialsResponse credentials(OrgContext context, TableIdentifier identifier) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.READ, table.namespace(), table.object());
    // Local buckets need no credentials: the list is empty for them.
    return org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse.builder()
        .addAllCredentials(vendedCredential(context, table.bucket(),
            table.object().location().path(), accessFor(context, table)).stream().toList())
        .build();
  }

  /**
   * What the caller's storage credentials may do with the table's files: read-write for those
   * who may write to the table, read-only for the rest. Per-grant decisions (a table-grain
   * grant) belong here, in the access policy this asks.
   */
  private Access accessFor(OrgContext context, ResolvedObject table) {
    return policy.allows(context, Action.WRITE, table.namespace(), table.object())
        ? Access.READ_WRITE : Access.READ_ONLY;
  }

  @Override
  public RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.READ, table.namespace());
    return signer.sign(table.bucket(), table.object().location().path(),
        accessFor(context, table), request);
  }

  /**
   * Adds what the engine asked for to reach the table's files: vended credentials when asked
   * for and the bucket can vend them; otherwise, for an engine that asked for any delegation,
   * remote signing where the bucket allows it (S3-compatible stores without STS).
   */
  private LoadTableResponse withStorageAccess(OrgContext context, TableIdentifier identifier,
      LoadTableResponse.Builder response, BucketConfig bucket, StoragePath location,
      Access access, Set<AccessDelegation> delegation) {
    Optional<Credential> credential = delegation.contains(AccessDelegation.VENDED_CREDENTIALS)
        ? vendedCredential(context, bucket, location, access) : Optional.empty();
    if (credential.isPresent()) {
      response.addAllConfig(credential.get().config()).addCredential(credential.get());
    } else if (!delegation.isEmpty() && signer.canSign(bucket)) {
      response.addAllConfig(signer.remoteSigningConfig(bucket, ResourcePaths
          .forCatalogProperties(Map.of("prefix", context.org().name().value()))
          .remoteSign(identifier)));
    }
    return response.build();
  }

  /** Credentials for the table's directory, named by its URI as engines match it. */
  private Optional<Credential> vendedCredential(OrgContext context, BucketConfig bucket,
      StoragePath location, Access access) {
    return vendor.vend(bucket, location, access, context.caller().principal().name())
        .map(vended -> ImmutableCredential.builder()
            .prefix(bucket.uriOf(location))
            .config(vended.config())
            .build());
  }

  private ResolvedObject writableTable(OrgContext context, TableIdentifier identifier) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.WRITE, table.namespace(), table.object());
    return table;
  }

  /** The second half of a staged create: the table is created by its first commit. */
  private LoadTableResponse createFromStaged(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    Namespace namespace = locator.namespace(context, identifier.namespace());
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(identifier);
    locator.find(context, identifier).ifPresent(existing -> {
      if (existing.object().kind() == CatalogObject.Kind.VIEW) {
        throw alreadyExists(existing, identifier);
      }
      // The requirement AssertTableDoesNotExist failed: the spec's commit conflict.
      throw new CommitFailedException("Requirement failed: table already exists: %s", identifier);
    });
    for (UpdateRequirement requirement : request.requirements()) {
      requirement.validate((TableMetadata) null);
    }
    TableMetadata.Builder builder = request.updates().stream()
        .filter(MetadataUpdate.UpgradeFormatVersion.class::isInstance)
        .map(update -> ((MetadataUpdate.UpgradeFormatVersion) update).formatVersion())
        .findFirst()
        .map(TableMetadata::buildFromEmpty)
        .orElseGet(TableMetadata::buildFromEmpty);
    request.updates().forEach(update -> update.applyTo(builder));
    TableMetadata metadata = builder.build();
    TablePlacement.Placed placed = placement.stagedInNamespace(namespace, metadata.location());
    TableLocations.requireWithin(placed.bucket(), placed.rootUri(), metadata);
    requireUnused(placed);
    TableMetadata written = files.writeTable(placed.bucket(), metadata, Optional.empty());
    unitOfWork.inTransaction(() -> insert(ids.newId(), namespace, name, CatalogObject.Kind.TABLE,
        written.metadataFileLocation(), placed, identifier));
    return LoadTableResponse.builder().withTableMetadata(written).build();
  }

  private void insert(UUID id, Namespace namespace, TableName name, CatalogObject.Kind kind,
      String metadataLocation, TablePlacement.Placed placed, TableIdentifier identifier) {
    Instant now = clock.instant();
    boolean inserted = objects.insert(new CatalogObject(id, namespace.id(), name, kind,
        metadataLocation, placed.location(), placed.ownBucket(), now, now));
    if (!inserted) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
  }

  private void requireFree(OrgContext context, TableIdentifier identifier) {
    locator.find(context, identifier).ifPresent(existing -> {
      throw alreadyExists(existing, identifier);
    });
  }

  private static AlreadyExistsException alreadyExists(ResolvedObject existing,
      TableIdentifier identifier) {
    return existing.object().kind() == CatalogObject.Kind.VIEW
        ? new AlreadyExistsException("View with same name already exists: %s", identifier)
        : new AlreadyExistsException("Table already exists: %s", identifier);
  }

  /**
   * Refuses a client-chosen location (a staged create's, a registered table's) that another live
   * table or view already uses: their files, and any credentials vended for them, would mix.
   */
  private void requireUnused(TablePlacement.Placed placed) {
    if (objects.locationInUse(placed.bucket().id(), placed.location().path())) {
      throw new AlreadyExistsException("Location '%s' is already used by another table or view",
          placed.rootUri());
    }
  }

  static String kindName(ResolvedObject object) {
    return object.object().kind() == CatalogObject.Kind.VIEW ? "View" : "Table";
  }

  private static boolean isCreate(UpdateTableRequest request) {
    return request.requirements().stream()
        .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance);
  }
}
