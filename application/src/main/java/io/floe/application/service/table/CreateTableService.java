package io.floe.application.service.table;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AccessDelegation;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.TableName;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Creates tables at locations the server chooses: a fresh directory under the namespace's prefix,
 * or a prefix of the table's own on another bucket of the org ({@value #BUCKET_PROPERTY}); in a
 * branch of a repo, a table the repo declares ({@link RepoTableCreation}). A staged create only
 * hands out the metadata and location; its first commit creates the table.
 */
public final class CreateTableService implements CreateTableUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final TablePlacement placement;
  private final MetadataFiles files;
  private final CatalogEntries entries;
  private final ChangePublisher publisher;
  private final TableStorageAccess storageAccess;
  private final IdGenerator ids;
  private final RepoTableCreation inRepo;

  public CreateTableService(CatalogLocator locator, AccessPolicy policy, TablePlacement placement,
      MetadataFiles files, CatalogEntries entries, ChangePublisher publisher,
      TableStorageAccess storageAccess, IdGenerator ids, RepoTableCreation inRepo) {
    this.locator = locator;
    this.policy = policy;
    this.placement = placement;
    this.files = files;
    this.entries = entries;
    this.publisher = publisher;
    this.storageAccess = storageAccess;
    this.ids = ids;
    this.inRepo = inRepo;
  }

  @Override
  public LoadTableResponse createTable(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, CreateTableRequest request,
      Set<AccessDelegation> delegation) {
    request.validate();
    return locator.eitherNamespace(context, namespaceId,
        namespace -> createTable(context, namespace, namespaceId, request, delegation),
        repo -> inRepo.create(context, repo, request, delegation));
  }

  private LoadTableResponse createTable(OrgContext context, Namespace namespace,
      org.apache.iceberg.catalog.Namespace namespaceId, CreateTableRequest request,
      Set<AccessDelegation> delegation) {
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    Optional<ChangePublisher.Replay<LoadTableResponse>> replay =
        publisher.replay(context, LoadTableResponse.class);
    if (replay.isPresent()) {
      return withStorageAccessOfCurrent(context, identifier, replay.get().result(), delegation);
    }
    locator.find(context, identifier).ifPresent(existing -> {
      throw CatalogEntries.alreadyExists(existing.object().kind(), CatalogObject.Kind.TABLE,
          identifier);
    });
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
    TableMetadata metadata = firstMetadata(request, placed.rootUri(), properties);
    files.limits().checkFormatVersion(null, metadata, "the new table");
    if (request.stageCreate()) {
      // The engine writes data files before the create commits: it needs access already.
      placement.prepareForWriters(placed);
      return withStorageAccess(context, identifier, LoadTableResponse.builder()
          .withTableMetadata(metadata).build(), placed, delegation);
    }
    LoadTableResponse created = create(context, identifier, tableId, namespace, name, placed,
        metadata);
    return withStorageAccess(context, identifier, created, placed, delegation);
  }

  /**
   * Claims the place, writes the first metadata file and adds the catalog entry in one
   * transaction. The claim comes first: it refuses a prefix that holds anything, the metadata
   * included. A create that loses its name or prefix to another removes what it wrote.
   */
  private LoadTableResponse create(OrgContext context, TableIdentifier identifier, UUID tableId,
      Namespace namespace, TableName name, TablePlacement.Placed placed, TableMetadata metadata) {
    TableMetadata first = files.placeTable(metadata, Optional.empty());
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(first).build();
    try {
      AuditedChange change = CatalogChanges.created(AuditAction.TABLE_CREATE,
          CatalogObject.Kind.TABLE, identifier, first.metadataFileLocation())
          .with("own_bucket", placed.ownBucket() ? placed.bucket().nickname().value() : null);
      return publisher.publish(context, change, response, () -> {
        placed.claim().run();
        files.writePlaced(placed.bucket(), first);
        entries.insert(new CatalogEntries.NewEntry(tableId, namespace, name,
            CatalogObject.Kind.TABLE, first.metadataFileLocation(), placed.location(),
            placed.ownBucket()), identifier);
      });
    } catch (AlreadyExistsException e) {
      // The name or the prefix was taken meanwhile: nothing points at the file written.
      files.deleteQuietly(placed.bucket(), first.metadataFileLocation(), e);
      placed.undo().accept(e);
      throw e;
    } catch (RuntimeException e) {
      placed.undo().accept(e);
      throw e;
    }
  }

  /** A new table's first metadata as the request describes it, at the server's location. */
  static TableMetadata firstMetadata(CreateTableRequest request, String location,
      Map<String, String> properties) {
    return TableMetadata.newTableMetadata(request.schema(),
        request.spec() != null ? request.spec() : PartitionSpec.unpartitioned(),
        request.writeOrder() != null ? request.writeOrder() : SortOrder.unsorted(),
        location, properties);
  }

  private LoadTableResponse withStorageAccess(OrgContext context, TableIdentifier identifier,
      LoadTableResponse response, TablePlacement.Placed placed, Set<AccessDelegation> delegation) {
    return storageAccess.withStorageAccess(context, identifier, response, placed.bucket(),
        placed.location().path(), Access.READ_WRITE, delegation);
  }

  /** A replayed create gets the storage access of the table as it is now, if it still is. */
  private LoadTableResponse withStorageAccessOfCurrent(OrgContext context,
      TableIdentifier identifier, LoadTableResponse recorded, Set<AccessDelegation> delegation) {
    Optional<ResolvedObject> table = locator.find(context, identifier)
        .filter(found -> found.object().kind() == CatalogObject.Kind.TABLE);
    return table.map(found -> storageAccess.withStorageAccess(context, identifier, recorded,
            found.bucket(), found.object().location().path(),
            storageAccess.accessFor(context, found), delegation))
        .orElse(recorded);
  }
}
