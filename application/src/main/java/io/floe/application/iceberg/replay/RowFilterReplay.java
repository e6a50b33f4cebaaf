package io.floe.application.iceberg.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.ManifestEvaluator;
import org.apache.iceberg.metrics.MetricsReporter;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Replays a delete or an overwrite (data files removed and added, as copy-on-write engines commit
 * them) onto the branch's current head, but only when the writers since the client's base added
 * no rows its predicate may match: a replayed delete would otherwise leave those rows behind. The
 * check reads the partition summaries of the manifests each of those snapshots added
 * ({@link ManifestEvaluator}) and, where they may match, the files' partitions and column
 * statistics ({@code ManifestReader.filterRows}). The change itself is rebuilt with
 * iceberg-core's {@code BaseOverwriteFiles}, whose own validation also refuses files the other
 * writers removed or attached deletes to.
 */
final class RowFilterReplay {
  private static final MetricsReporter NO_REPORTS = report -> { };

  private RowFilterReplay() {}

  /** Whether the change removes and adds data files only (no delete files). */
  static boolean isRowFilterChange(SnapshotChange change, ReplayTarget target) {
    String operation = change.operation();
    if (!"delete".equals(operation) && !"overwrite".equals(operation)) {
      return false;
    }
    Snapshot theirs = change.snapshot();
    target.guard().requireWithin("manifest list of snapshot " + theirs.snapshotId(),
        theirs.manifestListLocation());
    for (ManifestFile manifest : theirs.allManifests(target.io())) {
      if (Objects.equals(manifest.snapshotId(), theirs.snapshotId())) {
        target.guard().requireWithin("manifest", manifest.path());
      }
    }
    return !theirs.addedDeleteFiles(target.io()).iterator().hasNext()
        && !theirs.removedDeleteFiles(target.io()).iterator().hasNext();
  }

  static TableMetadata replay(SnapshotChange change, TableMetadata current, ReplayTarget target) {
    Snapshot theirs = change.snapshot();
    ConflictFilter filter = ConflictFilter.of(theirs.summary(), current.schema(), target.table());
    long head = current.ref(change.branch()).snapshotId();
    firstSnapshotAddingMatchingRows(current, head, change.base(), filter, target)
        .ifPresent(conflicting -> {
          throw new ReplayConflictException(target.table(), filter.describe(), change.base(),
              conflicting, "it added rows that the " + change.operation() + " may have to "
                  + "remove");
        });
    StagedTableOperations ops =
        new StagedTableOperations(current, target.io(), theirs.snapshotId());
    OverwriteFiles overwrite = new BaseTable(ops, target.table(), NO_REPORTS).newOverwrite()
        .toBranch(change.branch())
        .conflictDetectionFilter(filter.expression())
        .validateNoConflictingData()
        .validateNoConflictingDeletes();
    if (change.base() != null) {
      overwrite.validateFromSnapshot(change.base());
    }
    SummaryProperties.carried(theirs.summary()).forEach(overwrite::set);
    theirs.removedDataFiles(target.io()).forEach(overwrite::deleteFile);
    theirs.addedDataFiles(target.io()).forEach(overwrite::addFile);
    try {
      overwrite.commit();
    } catch (ValidationException e) {
      throw new ReplayConflictException(target.table(), filter.describe(), change.base(), head,
          e.getMessage());
    }
    return ops.staged().orElseThrow(() ->
        new IllegalStateException("the replayed " + change.operation() + " committed nothing"));
  }

  /** The oldest snapshot after {@code base}, up to {@code head}, that may have added matching rows. */
  static Optional<Long> firstSnapshotAddingMatchingRows(TableMetadata current, long head,
      Long base, ConflictFilter filter, ReplayTarget target) {
    List<Snapshot> since = new ArrayList<>();
    SnapshotUtil.ancestorsBetween(head, base, current::snapshot).forEach(since::add);
    Collections.reverse(since);
    for (Snapshot snapshot : since) {
      if (addsMatchingRows(current, snapshot, filter, target)) {
        return Optional.of(snapshot.snapshotId());
      }
    }
    return Optional.empty();
  }

  private static boolean addsMatchingRows(TableMetadata current, Snapshot snapshot,
      ConflictFilter filter, ReplayTarget target) {
    for (ManifestFile manifest : snapshot.dataManifests(target.io())) {
      if (!Objects.equals(manifest.snapshotId(), snapshot.snapshotId())
          || !manifest.hasAddedFiles()
          || !ManifestEvaluator.forRowFilter(filter.expression(),
              current.spec(manifest.partitionSpecId()), true).eval(manifest)) {
        continue;
      }
      try (ManifestReader<DataFile> files = ManifestFiles.read(manifest, target.io(),
          current.specsById()).filterRows(filter.expression()).caseSensitive(true)) {
        for (DataFile file : files) {
          // Files carried over in a merged manifest keep their older sequence number.
          if (file.fileSequenceNumber() == null
              || file.fileSequenceNumber() == snapshot.sequenceNumber()) {
            return true;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return false;
  }
}
