package io.floe.application.service.table;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.port.in.table.RegisterTableUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.RegistrationSource;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Adopts an existing table metadata file. Only metadata inside the namespace's own prefix may be
 * registered, describing a table that lies there too: the org owns that prefix. With
 * {@code overwrite}, an existing table at the same location is pointed at the file instead.
 */
public final class RegisterTableService implements RegisterTableUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final CatalogEntries entries;
  private final CatalogCommitter committer;
  private final ChangePublisher publisher;
  private final IdGenerator ids;

  public RegisterTableService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      CatalogEntries entries, CatalogCommitter committer, ChangePublisher publisher,
      IdGenerator ids) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.entries = entries;
    this.committer = committer;
    this.publisher = publisher;
    this.ids = ids;
  }

  @Override
  public LoadTableResponse registerTable(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, RegisterTableRequest request) {
    Namespace namespace = locator.catalogNamespace(context, namespaceId, "register a table");
    policy.require(context, Action.WRITE, namespace);
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    BucketConfig bucket = locator.bucket(namespace.bucketId());
    String namespaceUri = bucket.uriOf(namespace.prefix());
    // Only metadata inside the namespace's own prefix may be registered: the org owns it.
    TableLocations.requireWithin(bucket, namespaceUri, RegistrationSource.FIELD,
        request.metadataLocation());
    Optional<ChangePublisher.Replay<LoadTableResponse>> replay =
        publisher.replay(context, LoadTableResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    RegistrationSource.Table source = RegistrationSource.table(files, bucket, namespaceUri,
        request.metadataLocation());
    TableMetadata metadata = source.metadata();
    StorageLocation location = new StorageLocation(bucket.id(), source.location());
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(metadata).build();
    Optional<ResolvedObject> existing = locator.find(context, identifier);
    if (existing.isPresent()) {
      return overwrite(context, identifier, request, existing.get(), location, response);
    }
    TablePlacement.Placed placed = TablePlacement.Placed.existing(bucket, location);
    entries.requireUnused(placed);
    return publisher.publish(context, CatalogChanges.created(AuditAction.TABLE_REGISTER,
        CatalogObject.Kind.TABLE, identifier, request.metadataLocation()), response,
        () -> entries.insert(new CatalogEntries.NewEntry(
        ids.newId(), namespace, FlatIdentifiers.tableName(request.name()),
        CatalogObject.Kind.TABLE, request.metadataLocation(), location, false), identifier));
  }

  /** Points an existing table at the registered file, if the request allows and it is its own. */
  private LoadTableResponse overwrite(OrgContext context, TableIdentifier identifier,
      RegisterTableRequest request, ResolvedObject existing, StorageLocation location,
      LoadTableResponse response) {
    if (!request.overwrite() || existing.object().kind() != CatalogObject.Kind.TABLE) {
      throw CatalogEntries.alreadyExists(existing.object().kind(), CatalogObject.Kind.TABLE,
          identifier);
    }
    if (!existing.object().location().equals(location)) {
      throw new BadRequestException("Cannot overwrite table %s with metadata of a table at "
          + "another location (%s)", identifier, request.metadataLocation());
    }
    return committer.commit(context, "table " + identifier, () -> {
      ResolvedObject current = locator.catalogTable(context, identifier, "register");
      policy.require(context, Action.WRITE, current.namespace(), current.object());
      return new CatalogCommitter.Plan<>(List.of(new CatalogCommitter.Swap(
          current.pointer(), current.object().metadataLocation(),
          request.metadataLocation(), CatalogChanges.committed(AuditAction.TABLE_REGISTER,
              CatalogObject.Kind.TABLE, identifier, current.object().metadataLocation(),
              request.metadataLocation(), List.of()).with("overwrite", true))), response);
    });
  }
}
