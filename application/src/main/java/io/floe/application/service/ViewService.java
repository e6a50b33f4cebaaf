package io.floe.application.service;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.in.IcebergViewsUseCase;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.BucketConfig;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.TableName;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadViewResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.ViewMetadata;

/** Views: metadata files in a server-chosen directory, replaced by compare-and-swap. */
public final class ViewService implements IcebergViewsUseCase {
  private final CatalogLocator locator;
  private final CatalogObjectStore objects;
  private final MetadataFiles files;
  private final TablePlacement placement;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final CatalogObjectRenamer renamer;

  public ViewService(CatalogLocator locator, CatalogObjectStore objects, MetadataFiles files,
      TablePlacement placement, UnitOfWork unitOfWork, IdGenerator ids, Clock clock,
      AccessPolicy policy) {
    this.locator = locator;
    this.objects = objects;
    this.files = files;
    this.placement = placement;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.renamer = new CatalogObjectRenamer(locator, objects, unitOfWork, clock, policy);
  }

  @Override
  public ListTablesResponse list(OrgContext context, org.apache.iceberg.catalog.Namespace namespace,
      String pageToken, Integer pageSize) {
    Namespace found = locator.namespace(context, namespace);
    return CatalogListing.list(found, policy.tableScope(context, found), objects,
        CatalogObject.Kind.VIEW, namespace, pageToken, pageSize);
  }

  @Override
  public LoadViewResponse create(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, CreateViewRequest request) {
    request.validate();
    Namespace namespace = locator.namespace(context, namespaceId);
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    locator.find(context, identifier).ifPresent(existing -> {
      throw existing.object().kind() == CatalogObject.Kind.TABLE
          ? new AlreadyExistsException("Table with same name already exists: %s", identifier)
          : new AlreadyExistsException("View already exists: %s", identifier);
    });
    TablePlacement.Placed placed = placement.inNamespace(namespace, name);
    ViewMetadata metadata = ViewMetadata.builder()
        .setProperties(request.properties())
        .setLocation(placed.rootUri())
        .setCurrentVersion(request.viewVersion(), request.schema())
        .build();
    ViewMetadata written = files.writeView(placed.bucket(), metadata, Optional.empty());
    Instant now = clock.instant();
    boolean inserted = objects.insert(new CatalogObject(ids.newId(), namespace.id(), name,
        CatalogObject.Kind.VIEW, written.metadataFileLocation(), placed.location(), false, now,
        now));
    if (!inserted) {
      throw new AlreadyExistsException("View already exists: %s", identifier);
    }
    return response(written);
  }

  @Override
  public LoadViewResponse load(OrgContext context, TableIdentifier identifier) {
    ResolvedObject view = locator.view(context, identifier);
    policy.require(context, Action.READ, view.namespace(), view.object());
    return response(files.readView(view.bucket(), view.object().metadataLocation()));
  }

  @Override
  public LoadViewResponse replace(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    for (int attempt = 1; attempt <= TableCommitter.MAX_ATTEMPTS; attempt++) {
      ResolvedObject view = locator.view(context, identifier);
      policy.require(context, Action.WRITE, view.namespace(), view.object());
      ViewMetadata base = files.readView(view.bucket(), view.object().metadataLocation());
      for (UpdateRequirement requirement : request.requirements()) {
        requirement.validate(base);
      }
      ViewMetadata.Builder builder = ViewMetadata.buildFrom(base);
      for (MetadataUpdate update : request.updates()) {
        if (!(update instanceof MetadataUpdate.SetLocation)) {
          // The location is the server's choice; a client's request to move it is ignored.
          update.applyTo(builder);
        }
      }
      ViewMetadata updated = builder.build();
      if (updated.changes().isEmpty()) {
        return response(base);
      }
      TableLocations.requireWithin(view.bucket(), view.rootUri(), updated);
      ViewMetadata written = files.writeView(view.bucket(), updated,
          Optional.of(base.metadataFileLocation()));
      if (objects.swapPointer(view.object().id(), view.object().metadataLocation(),
          written.metadataFileLocation(), clock.instant())) {
        return response(written);
      }
    }
    throw new CommitFailedException("View %s changed concurrently; retry", identifier);
  }

  @Override
  public LoadViewResponse register(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, RegisterViewRequest request) {
    request.validate();
    Namespace namespace = locator.namespace(context, namespaceId);
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    BucketConfig bucket = locator.bucket(namespace.bucketId());
    String namespaceUri = bucket.uriOf(namespace.prefix());
    // Only metadata inside the namespace's own prefix may be registered: the org owns it.
    TableLocations.requireWithin(bucket, namespaceUri, RegistrationSource.FIELD,
        request.metadataLocation());
    locator.find(context, identifier).ifPresent(existing -> {
      throw existing.object().kind() == CatalogObject.Kind.VIEW
          ? new AlreadyExistsException("View already exists: %s", identifier)
          : new AlreadyExistsException("Table with same name already exists: %s", identifier);
    });
    RegistrationSource.View source = RegistrationSource.view(files, bucket, namespaceUri,
        request.metadataLocation());
    ViewMetadata metadata = source.metadata();
    Instant now = clock.instant();
    StorageLocation location = new StorageLocation(bucket.id(), source.location());
    if (!objects.insert(new CatalogObject(ids.newId(), namespace.id(), name,
        CatalogObject.Kind.VIEW, request.metadataLocation(), location, false, now, now))) {
      throw new AlreadyExistsException("View already exists: %s", identifier);
    }
    return response(metadata);
  }

  @Override
  public void rename(OrgContext context, RenameTableRequest request) {
    renamer.rename(context, locator.view(context, request.source()), request);
  }


  @Override
  public void drop(OrgContext context, TableIdentifier identifier) {
    ResolvedObject view = locator.view(context, identifier);
    policy.require(context, Action.WRITE, view.namespace(), view.object());
    if (!objects.delete(view.object().id())) {
      throw new NoSuchViewException("View does not exist: %s", identifier);
    }
  }

  private static LoadViewResponse response(ViewMetadata metadata) {
    return ImmutableLoadViewResponse.builder()
        .metadata(metadata)
        .metadataLocation(metadata.metadataFileLocation())
        .build();
  }
}
