package io.floe.application.service.view;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.port.in.view.RegisterViewUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.RegistrationSource;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.ViewMetadata;

/**
 * Adopts an existing view metadata file; only one inside the namespace's own prefix, describing a
 * view no other table or view shares a location with.
 */
public final class RegisterViewService implements RegisterViewUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final CatalogEntries entries;
  private final ChangePublisher publisher;
  private final IdGenerator ids;

  public RegisterViewService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      CatalogEntries entries, ChangePublisher publisher, IdGenerator ids) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.entries = entries;
    this.publisher = publisher;
    this.ids = ids;
  }

  @Override
  public LoadViewResponse registerView(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, RegisterViewRequest request) {
    request.validate();
    Namespace namespace = locator.namespace(context, namespaceId);
    policy.require(context, Action.WRITE, namespace);
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    BucketConfig bucket = locator.bucket(namespace.bucketId());
    String namespaceUri = bucket.uriOf(namespace.prefix());
    // Only metadata inside the namespace's own prefix may be registered: the org owns it.
    TableLocations.requireWithin(bucket, namespaceUri, RegistrationSource.FIELD,
        request.metadataLocation());
    Optional<ChangePublisher.Replay<LoadViewResponse>> replay =
        publisher.replay(context, LoadViewResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    locator.find(context, identifier).ifPresent(existing -> {
      throw CatalogEntries.alreadyExists(existing.object().kind(), CatalogObject.Kind.VIEW,
          identifier);
    });
    RegistrationSource.View source = RegistrationSource.view(files, bucket, namespaceUri,
        request.metadataLocation());
    ViewMetadata metadata = source.metadata();
    StorageLocation location = new StorageLocation(bucket.id(), source.location());
    // Two entries never share files: a table's purge or cleanup would take the view's with it.
    entries.requireUnused(TablePlacement.Placed.existing(bucket, location));
    return publisher.publish(context, CatalogChanges.created(AuditAction.VIEW_REGISTER,
        CatalogObject.Kind.VIEW, identifier, request.metadataLocation()),
        ViewResponses.of(metadata), () -> entries.insert(
        new CatalogEntries.NewEntry(ids.newId(), namespace,
            FlatIdentifiers.tableName(request.name()), CatalogObject.Kind.VIEW,
            request.metadataLocation(), location, false), identifier));
  }
}
