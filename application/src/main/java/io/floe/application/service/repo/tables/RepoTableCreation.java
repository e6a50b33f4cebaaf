package io.floe.application.service.repo.tables;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AccessDelegation;
import io.floe.application.model.AuditAction;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.out.RepoTablePointers;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.application.service.table.StagedTableCompletion;
import io.floe.domain.CatalogObject;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Creates a table in a repo branch: its first metadata file under the repo's {@code tables/}
 * directory, then one Icechunk commit that declares it on the root group and carries its first
 * pointer, as the convention requires. The table keeps Iceberg's cleanup switched off
 * ({@link RepoTableProperties}). A staged create hands out the location and declares the table
 * with its first commit.
 */
public final class RepoTableCreation {
  /** The Zarr group that declares the tables engines create. */
  static final String DECLARING_GROUP = "/";

  private final RepoTablePointers pointers;
  private final TablePlacement placement;
  private final MetadataFiles files;
  private final RepoTableCommitter committer;
  private final ChangePublisher publisher;
  private final TableStorageAccess storageAccess;

  public RepoTableCreation(RepoTablePointers pointers, TablePlacement placement,
      MetadataFiles files, RepoTableCommitter committer, ChangePublisher publisher,
      TableStorageAccess storageAccess) {
    this.pointers = pointers;
    this.placement = placement;
    this.files = files;
    this.committer = committer;
    this.publisher = publisher;
    this.storageAccess = storageAccess;
  }

  public LoadTableResponse create(OrgContext context, RepoNamespace namespace,
      CreateTableRequest request, Set<AccessDelegation> delegation) {
    request.validate();
    String branch = namespace.requireBranch();
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespace.namespace(), request.name());
    if (request.properties().containsKey(CreateTableUseCase.BUCKET_PROPERTY)) {
      throw new BadRequestException("A table of repo %s lives in the repo: the '%s' property "
          + "does not apply", namespace.repo().name(), CreateTableUseCase.BUCKET_PROPERTY);
    }
    Optional<ChangePublisher.Replay<LoadTableResponse>> replay =
        publisher.replay(context, LoadTableResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    requireUndeclared(namespace, identifier);
    TablePlacement.Placed placed = placement.inRepo(namespace.bucket(),
        namespace.repo().location().path(), name);
    Map<String, String> properties = RepoTableProperties.forNewTable(request.properties());
    TableLocations.requirePathProperties(placed.bucket(), placed.rootUri(), properties);
    TableMetadata metadata = TableMetadata.newTableMetadata(request.schema(),
        request.spec() != null ? request.spec() : PartitionSpec.unpartitioned(),
        request.writeOrder() != null ? request.writeOrder() : SortOrder.unsorted(),
        placed.rootUri(), properties);
    if (request.stageCreate()) {
      placement.prepareForWriters(placed);
      return withStorageAccess(context, identifier, metadata, namespace, delegation);
    }
    TableMetadata first = files.writeTable(placed.bucket(), metadata, Optional.empty());
    declare(context, namespace, branch, identifier, placed.rootUri(), first);
    return withStorageAccess(context, identifier, first, namespace, delegation);
  }

  /** The first commit of a staged create: the table is declared with the metadata it makes. */
  public LoadTableResponse complete(OrgContext context, RepoNamespace namespace,
      TableIdentifier identifier, UpdateTableRequest request) {
    String branch = namespace.requireBranch();
    FlatIdentifiers.tableName(identifier);
    Optional<ChangePublisher.Replay<LoadTableResponse>> replay =
        publisher.replay(context, LoadTableResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    if (namespace.version().tables().containsKey(identifier.name())) {
      throw new CommitFailedException("Requirement failed: table already exists: %s", identifier);
    }
    for (UpdateRequirement requirement : request.requirements()) {
      requirement.validate((TableMetadata) null);
    }
    TableMetadata metadata = StagedTableCompletion.firstMetadata(request);
    StoragePath tables = namespace.repo().location().path().resolve(TablePlacement.REPO_TABLES);
    StoragePath path = TableLocations.pathIn(namespace.bucket(), metadata.location());
    if (!path.isWithin(tables) || path.equals(tables)) {
      throw new ForbiddenException("Location '%s' is not inside the tables directory of repo %s",
          metadata.location(), namespace.repo().name());
    }
    RepoTableProperties.requireKept(metadata, identifier.toString());
    String rootUri = namespace.bucket().uriOf(path);
    if (namespace.version().tables().values().stream()
        .anyMatch(table -> table.location().equals(rootUri))) {
      throw new ForbiddenException("Location '%s' belongs to another table of repo %s",
          metadata.location(), namespace.repo().name());
    }
    TableLocations.requireWithin(namespace.bucket(), rootUri, metadata);
    TableMetadata first = files.writeTable(namespace.bucket(), metadata, Optional.empty());
    declare(context, namespace, branch, identifier, rootUri, first);
    return LoadTableResponse.builder().withTableMetadata(first).build();
  }

  /** One Icechunk commit declaring the table with its first pointer; lost to a twin: a 409. */
  private void declare(OrgContext context, RepoNamespace namespace, String branch,
      TableIdentifier identifier, String rootUri, TableMetadata first) {
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(first).build();
    committer.commit(context, namespace, "table " + identifier, () -> {
      requireUndeclared(new RepoNamespace(namespace.repo(), namespace.bucket(),
          namespace.namespace(), pointers.read(namespace.bucket(),
              namespace.repo().location().path(), branch)), identifier);
      return new RepoTableCommitter.Plan<>(new RepoTablePointers.Commit(branch, List.of(),
          List.of(new RepoTablePointers.Declaration(DECLARING_GROUP, identifier.name(), rootUri,
              first.metadataFileLocation())),
          "Create Iceberg table " + identifier.name() + " through Floe"), response,
          List.of(CatalogChanges.created(AuditAction.TABLE_CREATE, CatalogObject.Kind.TABLE,
              identifier, first.metadataFileLocation())));
    });
  }

  private static void requireUndeclared(RepoNamespace namespace, TableIdentifier identifier) {
    if (namespace.version().tables().containsKey(identifier.name())) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
  }

  private LoadTableResponse withStorageAccess(OrgContext context, TableIdentifier identifier,
      TableMetadata metadata, RepoNamespace namespace, Set<AccessDelegation> delegation) {
    return storageAccess.withStorageAccess(context, identifier,
        LoadTableResponse.builder().withTableMetadata(metadata).build(), namespace.bucket(),
        TableLocations.pathIn(namespace.bucket(), metadata.location()),
        RepoTableReads.access(namespace), delegation);
  }
}
