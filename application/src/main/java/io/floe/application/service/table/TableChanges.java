package io.floe.application.service.table;

import io.floe.application.iceberg.ClientUpdates;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.replay.ChangeReplay;
import io.floe.application.iceberg.replay.ReplayTarget;
import io.floe.application.service.catalog.TableLocations;
import io.floe.domain.BucketConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.RetryableValidationException;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one table's change to its current metadata, whatever holds the table's pointer: the
 * client's requirements are checked, its updates applied with iceberg-core's own classes. A
 * change whose requirements failed only because another writer moved the branch meanwhile is
 * replayed onto the new head ({@link ChangeReplay}) instead of failing.
 */
public final class TableChanges {
  private static final Logger LOG = LoggerFactory.getLogger(TableChanges.class);

  private final MetadataFiles files;
  private final ChangeReplay replay;

  public TableChanges(MetadataFiles files, ChangeReplay replay) {
    this.files = files;
    this.replay = replay;
  }

  /** The table a change applies to: its name, bucket and root directory. */
  public record Target(TableIdentifier identifier, BucketConfig bucket, String rootUri) {}

  /** The metadata after the change, or empty when the change changes nothing. */
  public Optional<TableMetadata> apply(Target table, TableMetadata base,
      UpdateTableRequest change) {
    for (UpdateRequirement requirement : change.requirements()) {
      try {
        requirement.validate(base);
      } catch (CommitFailedException conflict) {
        TableMetadata rebased = replay.rebase(new ReplayTarget(table.identifier().toString(),
            files.tableIo(table.bucket(), table.rootUri()), (what, location) ->
                TableLocations.requireWithin(table.bucket(), table.rootUri(), what, location)),
            base, change, conflict);
        files.limits().checkFormatVersion(base, rebased, "the updated table");
        return Optional.of(rebased);
      }
    }
    List<MetadataUpdate> updates = new ArrayList<>();
    for (MetadataUpdate update : change.updates()) {
      if (update instanceof MetadataUpdate.SetLocation setLocation) {
        // The location is the server's choice; a client's request to move it is ignored.
        LOG.debug("ignoring a request to move {} to {}", table.identifier(),
            setLocation.location());
      } else {
        updates.add(update);
      }
    }
    TableMetadata updated;
    try {
      updated = ClientUpdates.applyToTable(base, () -> TableMetadata.buildFrom(base), updates);
    } catch (RetryableValidationException e) {
      throw new CommitFailedException(e, "Validation failed, please retry: %s", e.getMessage());
    }
    files.limits().checkFormatVersion(base, updated, "the updated table");
    return updated.changes().isEmpty() ? Optional.empty() : Optional.of(updated);
  }
}
