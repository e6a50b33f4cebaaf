package io.floe.application.service.view;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.port.in.view.CreateViewUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.TableName;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.ViewMetadata;

/** Creates a view whose metadata files live in a fresh directory under the namespace's prefix. */
public final class CreateViewService implements CreateViewUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final TablePlacement placement;
  private final MetadataFiles files;
  private final CatalogEntries entries;
  private final ChangePublisher publisher;
  private final IdGenerator ids;

  public CreateViewService(CatalogLocator locator, AccessPolicy policy, TablePlacement placement,
      MetadataFiles files, CatalogEntries entries, ChangePublisher publisher, IdGenerator ids) {
    this.locator = locator;
    this.policy = policy;
    this.placement = placement;
    this.files = files;
    this.entries = entries;
    this.publisher = publisher;
    this.ids = ids;
  }

  @Override
  public LoadViewResponse createView(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespaceId, CreateViewRequest request) {
    request.validate();
    Namespace namespace = locator.namespace(context, namespaceId);
    policy.require(context, Action.WRITE, namespace);
    TableName name = FlatIdentifiers.tableName(request.name());
    TableIdentifier identifier = TableIdentifier.of(namespaceId, request.name());
    Optional<ChangePublisher.Replay<LoadViewResponse>> replay =
        publisher.replay(context, LoadViewResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    locator.find(context, identifier).ifPresent(existing -> {
      throw CatalogEntries.alreadyExists(existing.object().kind(), CatalogObject.Kind.VIEW,
          identifier);
    });
    TablePlacement.Placed placed = placement.inNamespace(namespace, name);
    ViewMetadata metadata = ViewMetadata.builder()
        .setProperties(request.properties())
        .setLocation(placed.rootUri())
        .setCurrentVersion(request.viewVersion(), request.schema())
        .build();
    ViewMetadata written = files.writeView(placed.bucket(), metadata, Optional.empty());
    return publisher.publish(context, CatalogChanges.created(AuditAction.VIEW_CREATE,
        CatalogObject.Kind.VIEW, identifier, written.metadataFileLocation()),
        ViewResponses.of(written), () -> entries.insert(
        new CatalogEntries.NewEntry(ids.newId(), namespace, name, CatalogObject.Kind.VIEW,
            written.metadataFileLocation(), placed.location(), false), identifier));
  }
}
