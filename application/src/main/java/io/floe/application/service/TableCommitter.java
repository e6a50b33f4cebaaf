package io.floe.application.service;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.UnitOfWork;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.RetryableValidationException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits table changes: validates the client's requirements against the current metadata, applies
 * the updates with iceberg-core's own classes, writes the new metadata file, and moves every
 * pointer with a compare-and-swap in one database transaction. When another writer moved a
 * pointer in between, the whole attempt is planned again on the new state (the client's
 * requirements decide whether that is still valid), a bounded number of times.
 */
final class TableCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(TableCommitter.class);
  static final int MAX_ATTEMPTS = 8;

  private final CatalogObjectStore objects;
  private final MetadataFiles files;
  private final UnitOfWork unitOfWork;
  private final Clock clock;

  TableCommitter(CatalogObjectStore objects, MetadataFiles files, UnitOfWork unitOfWork,
      Clock clock) {
    this.objects = objects;
    this.files = files;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
  }

  /** One table's change, planned against the metadata it was read at. */
  record Plan(ResolvedObject table, TableMetadata base, TableMetadata written) {
    boolean changes() {
      return written != null;
    }
  }

  /** Commits changes to the tables {@code resolve} finds; returns each table's new metadata. */
  List<TableMetadata> commit(List<UpdateTableRequest> changes,
      java.util.function.Function<TableIdentifier, ResolvedObject> resolve) {
    requireDistinct(changes);
    List<TableIdentifier> tables = changes.stream().map(UpdateTableRequest::identifier).toList();
    for (int attempt = 1; ; attempt++) {
      List<Plan> plans = new ArrayList<>();
      try {
        for (UpdateTableRequest change : changes) {
          plans.add(plan(resolve.apply(change.identifier()), change));
        }
      } catch (CommitFailedException e) {
        LOG.info("commit {}: conflict after {} attempt(s): {}", tables, attempt, e.getMessage());
        throw e;
      }
      if (swapAll(plans)) {
        LOG.info("commit {}: committed after {} attempt(s)", tables, attempt);
        return plans.stream().map(p -> p.changes() ? p.written() : p.base()).toList();
      }
      if (attempt == MAX_ATTEMPTS) {
        LOG.info("commit {}: conflict after {} attempt(s): changed concurrently every time",
            tables, attempt);
        throw new CommitFailedException(
            "Commit failed: the table changed concurrently %d times in a row; retry later",
            MAX_ATTEMPTS);
      }
      LOG.debug("concurrent commit on {}, planning attempt {} again", changes.size(), attempt + 1);
    }
  }

  private Plan plan(ResolvedObject table, UpdateTableRequest change) {
    TableMetadata base = files.readTable(table.bucket(), table.object().metadataLocation());
    for (UpdateRequirement requirement : change.requirements()) {
      requirement.validate(base);
    }
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    try {
      for (MetadataUpdate update : change.updates()) {
        if (update instanceof MetadataUpdate.SetLocation setLocation) {
          // The location is the server's choice; a client's request to move it is ignored.
          LOG.debug("ignoring a request to move {} to {}", change.identifier(),
              setLocation.location());
          continue;
        }
        update.applyTo(builder);
      }
    } catch (RetryableValidationException e) {
      throw new CommitFailedException(e, "Validation failed, please retry: %s", e.getMessage());
    }
    TableMetadata updated = builder.build();
    if (updated.changes().isEmpty()) {
      return new Plan(table, base, null);
    }
    TableLocations.requireWithin(table.bucket(), table.rootUri(), updated);
    TableMetadata written =
        files.writeTable(table.bucket(), updated, Optional.of(base.metadataFileLocation()));
    return new Plan(table, base, written);
  }

  /** True when every pointer moved; false (and nothing moved) when any had moved meanwhile. */
  private boolean swapAll(List<Plan> plans) {
    List<Plan> changing = plans.stream().filter(Plan::changes).toList();
    if (changing.isEmpty()) {
      return true;
    }
    try {
      unitOfWork.inTransaction(() -> {
        for (Plan plan : changing) {
          boolean swapped = objects.swapPointer(plan.table().object().id(),
              plan.table().object().metadataLocation(), plan.written().metadataFileLocation(),
              clock.instant());
          if (!swapped) {
            throw new ConcurrentCommit();
          }
        }
      });
      return true;
    } catch (ConcurrentCommit e) {
      return false;
    }
  }

  private static void requireDistinct(List<UpdateTableRequest> changes) {
    Set<TableIdentifier> seen = new HashSet<>();
    for (UpdateTableRequest change : changes) {
      if (change.identifier() == null) {
        throw new BadRequestException("Every table change needs an identifier");
      }
      if (!seen.add(change.identifier())) {
        throw new BadRequestException("Table %s appears twice in one transaction",
            change.identifier());
      }
    }
  }

  /** Thrown inside the transaction to roll every swap of an attempt back. */
  private static final class ConcurrentCommit extends RuntimeException {
    ConcurrentCommit() {
      super(null, null, false, false);
    }
  }
}
