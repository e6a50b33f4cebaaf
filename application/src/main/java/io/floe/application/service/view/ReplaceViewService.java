package io.floe.application.service.view;

import io.floe.application.iceberg.ClientUpdates;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.port.in.view.ReplaceViewUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.CatalogCommitter.Plan;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.ViewMetadata;

/**
 * Replaces a view's definition: the client's requirements are checked against its current
 * metadata, the updates applied, a new metadata file written and the pointer moved by the
 * catalog's one committer.
 */
public final class ReplaceViewService implements ReplaceViewUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final CatalogCommitter committer;
  private final ChangePublisher publisher;

  public ReplaceViewService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      CatalogCommitter committer, ChangePublisher publisher) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.committer = committer;
    this.publisher = publisher;
  }

  @Override
  public LoadViewResponse replaceView(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    writable(context, identifier);
    Optional<ChangePublisher.Replay<LoadViewResponse>> replay =
        publisher.replay(context, LoadViewResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    return committer.commit(context, "view " + identifier,
        () -> plan(writable(context, identifier), identifier, request));
  }

  private Plan<LoadViewResponse> plan(ResolvedObject view, TableIdentifier identifier,
      UpdateTableRequest request) {
    ViewMetadata base = files.readView(view.bucket(), view.object().metadataLocation());
    for (UpdateRequirement requirement : request.requirements()) {
      requirement.validate(base);
    }
    // The location is the server's choice; a client's request to move it is ignored.
    ViewMetadata updated = ClientUpdates.applyToView(base, request.updates().stream()
        .filter(update -> !(update instanceof MetadataUpdate.SetLocation)).toList());
    if (updated.changes().isEmpty()) {
      return new Plan<>(List.of(), ViewResponses.of(base));
    }
    TableLocations.requireWithin(view.bucket(), view.rootUri(), updated);
    ViewMetadata written = files.writeView(view.bucket(), updated,
        Optional.of(base.metadataFileLocation()));
    return new Plan<>(List.of(new CatalogCommitter.Swap(view.pointer(),
        view.object().metadataLocation(), written.metadataFileLocation(),
        CatalogChanges.committed(AuditAction.VIEW_REPLACE, CatalogObject.Kind.VIEW, identifier,
            view.object().metadataLocation(), written.metadataFileLocation(),
            request.updates()))), ViewResponses.of(written));
  }

  private ResolvedObject writable(OrgContext context, TableIdentifier identifier) {
    ResolvedObject view = locator.view(context, identifier);
    policy.require(context, Action.WRITE, view.namespace(), view.object());
    return view;
  }
}
