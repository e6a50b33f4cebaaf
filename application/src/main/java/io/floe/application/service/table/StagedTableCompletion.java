package io.floe.application.service.table;

import io.floe.application.iceberg.ClientUpdates;
import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * The second half of a staged create (a create-table transaction): the table comes into being
 * with its first commit, at the location the staged create handed out, which must lie strictly
 * inside the namespace's prefix and be used by no other table or view (in a branch of a repo:
 * {@link RepoTableCreation}).
 */
public final class StagedTableCompletion {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final TablePlacement placement;
  private final MetadataFiles files;
  private final CatalogEntries entries;
  private final ChangePublisher publisher;
  private final IdGenerator ids;
  private final RepoTableCreation inRepo;

  public StagedTableCompletion(CatalogLocator locator, AccessPolicy policy,
      TablePlacement placement, MetadataFiles files, CatalogEntries entries,
      ChangePublisher publisher, IdGenerator ids, RepoTableCreation inRepo) {
    this.locator = locator;
    this.policy = policy;
    this.placement = placement;
    this.files = files;
    this.entries = entries;
    this.publisher = publisher;
    this.ids = ids;
    this.inRepo = inRepo;
  }

  /** Whether the change is the first commit of a staged create. */
  public static boolean isCompletion(UpdateTableRequest request) {
    return request.requirements().stream()
        .anyMatch(UpdateRequirement.AssertTableDoesNotExist.class::isInstance);
  }

  LoadTableResponse complete(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    return locator.eitherNamespace(context, identifier.namespace(),
        namespace -> complete(context, namespace, identifier, request),
        repo -> inRepo.complete(context, repo, identifier, request));
  }

  private LoadTableResponse complete(OrgContext context, Namespace namespace,
      TableIdentifier identifier, UpdateTableRequest request) {
    policy.require(context, Action.WRITE, namespace);
    Optional<ChangePublisher.Replay<LoadTableResponse>> replay =
        publisher.replay(context, LoadTableResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    locator.find(context, identifier).ifPresent(existing -> {
      if (existing.object().kind() == CatalogObject.Kind.VIEW) {
        throw CatalogEntries.alreadyExists(CatalogObject.Kind.VIEW, CatalogObject.Kind.TABLE,
            identifier);
      }
      // The requirement AssertTableDoesNotExist failed: the spec's commit conflict.
      throw new CommitFailedException("Requirement failed: table already exists: %s", identifier);
    });
    for (UpdateRequirement requirement : request.requirements()) {
      requirement.validate((TableMetadata) null);
    }
    TableMetadata metadata = firstMetadata(request);
    files.limits().checkFormatVersion(null, metadata, "the new table");
    TablePlacement.Placed placed = placement.stagedInNamespace(namespace, metadata.location());
    TableLocations.requireWithin(placed.bucket(), placed.rootUri(), metadata);
    entries.requireUnused(placed);
    TableMetadata written = files.writeTable(placed.bucket(), metadata, Optional.empty());
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(written).build();
    return publisher.publish(context, CatalogChanges.created(AuditAction.TABLE_CREATE,
        CatalogObject.Kind.TABLE, identifier, written.metadataFileLocation())
        .with("staged", true), response, () -> entries.insert(new CatalogEntries.NewEntry(
        ids.newId(), namespace, FlatIdentifiers.tableName(identifier), CatalogObject.Kind.TABLE,
        written.metadataFileLocation(), placed.location(), false), identifier));
  }

  /** The table's metadata as its first commit describes it, in the format version it asks for. */
  public static TableMetadata firstMetadata(UpdateTableRequest request) {
    Optional<Integer> formatVersion = request.updates().stream()
        .filter(MetadataUpdate.UpgradeFormatVersion.class::isInstance)
        .map(update -> ((MetadataUpdate.UpgradeFormatVersion) update).formatVersion())
        .findFirst();
    TableMetadata metadata = ClientUpdates.applyToTable(null, () -> formatVersion
        .map(TableMetadata::buildFromEmpty).orElseGet(TableMetadata::buildFromEmpty),
        request.updates());
    if (metadata == null) {
      throw new BadRequestException("The first commit of a staged create must describe the table");
    }
    return metadata;
  }
}
