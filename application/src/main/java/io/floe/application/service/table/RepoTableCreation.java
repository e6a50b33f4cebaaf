package io.floe.application.service.table;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AccessDelegation;
import io.floe.application.model.AuditAction;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.RepoVersions.RepoTable;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.repo.tables.RepoNamespace;
import io.floe.application.service.repo.tables.RepoNamespaces;
import io.floe.application.service.repo.tables.RepoTableProperties;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.domain.CatalogObject;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * The part of creating a table that differs in a repo branch: its first metadata file goes under
 * the repo's {@code tables/} directory, in a directory no other table of the repo shares, and the
 * table comes into being with one commit on the branch that declares it with its first pointer,
 * as the convention requires, through the catalog's one committer. The table keeps Iceberg's
 * cleanup switched off ({@link RepoTableProperties}). A staged create hands out the location and
 * declares the table with its first commit.
 */
public final class RepoTableCreation {
  private final RepoNamespaces repos;
  private final TablePlacement placement;
  private final MetadataFiles files;
  private final CatalogCommitter committer;
  private final ChangePublisher publisher;
  private final TableStorageAccess storageAccess;

  public RepoTableCreation(RepoNamespaces repos, TablePlacement placement, MetadataFiles files,
      CatalogCommitter committer, ChangePublisher publisher, TableStorageAccess storageAccess) {
    this.repos = repos;
    this.placement = placement;
    this.files = files;
    this.committer = committer;
    this.publisher = publisher;
    this.storageAccess = storageAccess;
  }

  LoadTableResponse create(OrgContext context, RepoNamespace namespace,
      CreateTableRequest request, Set<AccessDelegation> delegation) {
    namespace.requireCommittable();
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
    requireApart(namespace, identifier, placed.location().path());
    Map<String, String> properties = RepoTableProperties.forNewTable(request.properties());
    TableLocations.requirePathProperties(placed.bucket(), placed.rootUri(), properties);
    TableMetadata metadata =
        CreateTableService.firstMetadata(request, placed.rootUri(), properties);
    files.limits().checkFormatVersion(null, metadata, "the new table");
    if (request.stageCreate()) {
      placement.prepareForWriters(placed);
      return withStorageAccess(context, identifier, metadata, namespace, delegation);
    }
    TableMetadata first = declare(context, namespace, identifier, placed.rootUri(),
        files.writeTable(placed.bucket(), metadata, Optional.empty()));
    return withStorageAccess(context, identifier, first, namespace, delegation);
  }

  /** The first commit of a staged create: the table is declared with the metadata it makes. */
  LoadTableResponse complete(OrgContext context, RepoNamespace namespace,
      TableIdentifier identifier, UpdateTableRequest request) {
    namespace.requireCommittable();
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
    files.limits().checkFormatVersion(null, metadata, "the new table");
    StoragePath tables = namespace.repo().location().path().resolve(TablePlacement.REPO_TABLES);
    StoragePath path = TableLocations.pathIn(namespace.bucket(), metadata.location());
    if (!path.isWithin(tables) || path.equals(tables)) {
      throw new ForbiddenException("Location '%s' is not inside the tables directory of repo %s",
          metadata.location(), namespace.repo().name());
    }
    RepoTableProperties.requireKept(metadata, identifier.toString());
    requireApart(namespace, identifier, path);
    String rootUri = namespace.bucket().uriOf(path);
    TableLocations.requireWithin(namespace.bucket(), rootUri, metadata);
    TableMetadata first = declare(context, namespace, identifier, rootUri,
        files.writeTable(namespace.bucket(), metadata, Optional.empty()));
    return LoadTableResponse.builder().withTableMetadata(first).build();
  }

  /**
   * One commit on the branch that declares the table with its first pointer, checked again on
   * the branch's head at every attempt. A twin that got the name first, or a table whose files
   * would meet this one's, refuses it, and the file written for it is removed again.
   */
  private TableMetadata declare(OrgContext context, RepoNamespace namespace,
      TableIdentifier identifier, String rootUri, TableMetadata first) {
    StoragePath path = TableLocations.pathIn(namespace.bucket(), rootUri);
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(first).build();
    try {
      committer.commit(context, "table " + identifier, () -> {
        RepoNamespace head = repos.require(context, namespace.namespace());
        requireUndeclared(head, identifier);
        requireApart(head, identifier, path);
        return new CatalogCommitter.Plan<>(List.of(new CatalogCommitter.Swap(
            new MetadataPointers.BranchTable(head.branch(), identifier.name(), rootUri),
            Optional.empty(), first.metadataFileLocation(),
            CatalogChanges.created(AuditAction.TABLE_CREATE, CatalogObject.Kind.TABLE,
                identifier, first.metadataFileLocation()))), response);
      });
    } catch (AlreadyExistsException | ForbiddenException refused) {
      // Refused before anything moved: nothing points at the file written.
      files.deleteQuietly(namespace.bucket(), first.metadataFileLocation(), refused);
      throw refused;
    }
    return first;
  }

  private static void requireUndeclared(RepoNamespace namespace, TableIdentifier identifier) {
    if (namespace.version().tables().containsKey(identifier.name())) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
  }

  /**
   * The rule that keeps a repo's tables apart: a new table's directory is neither another
   * declared table's, nor inside one, nor around one, so no two tables of the repo share files.
   */
  private static void requireApart(RepoNamespace namespace, TableIdentifier identifier,
      StoragePath path) {
    for (RepoTable table : namespace.version().tables().values()) {
      Optional<StoragePath> other = namespace.bucket().pathOf(table.location());
      if (other.isPresent() && other.get().overlaps(path)) {
        throw new ForbiddenException("Location '%s' of table %s meets table %s of repo %s at "
            + "'%s': the tables of a repo never share a directory, nor lie inside one another",
            namespace.bucket().uriOf(path), identifier, table.name(), namespace.repo().name(),
            table.location());
      }
    }
  }

  private LoadTableResponse withStorageAccess(OrgContext context, TableIdentifier identifier,
      TableMetadata metadata, RepoNamespace namespace, Set<AccessDelegation> delegation) {
    return storageAccess.withStorageAccess(context, identifier,
        LoadTableResponse.builder().withTableMetadata(metadata).build(), namespace.bucket(),
        TableLocations.pathIn(namespace.bucket(), metadata.location()), Access.READ_WRITE,
        delegation);
  }
}
