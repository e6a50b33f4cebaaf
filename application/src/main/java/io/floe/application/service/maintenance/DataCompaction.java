package io.floe.application.service.maintenance;

import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Compaction;
import io.floe.application.port.out.DataFileRewriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bin-packs a table's small data files: the Parquet files of the current snapshot smaller than
 * the target size, grouped by partition spec and partition, each group with enough files
 * rewritten into files of about the target size ({@link DataFileRewriter}), all committed as one
 * {@link RewriteFiles} that validates from the snapshot it read. An append that races it is kept
 * (iceberg-core's retry re-applies the rewrite on the new head); a delete that touches a
 * rewritten file makes it give up, deleting the files it wrote. Position deletes and deletion
 * vectors are applied while rewriting, and those that name one rewritten file only leave in the
 * same commit, so merge-on-read tables are compacted too. Files with equality deletes are skipped:
 * applying them holds every deleted key in memory, and the delete files would stay anyway, since
 * they apply to other files as well.
 */
final class DataCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(DataCompaction.class);
  /** The most files one run rewrites; the next run takes the rest. */
  static final int MAX_INPUT_FILES = 10_000;

  private final DataFileRewriter rewriter;

  DataCompaction(DataFileRewriter rewriter) {
    this.rewriter = rewriter;
  }

  TableMaintenance.Compaction run(Table table, Compaction settings, boolean dryRun) {
    Snapshot start = table.currentSnapshot();
    if (start == null) {
      return new TableMaintenance.Compaction("nothing-to-do", 0, 0, 0, 0, 0, 0,
          "the table has no snapshot");
    }
    Plan plan = plan(table, start, settings);
    List<List<FileScanTask>> groups = plan.groups();
    int inputFiles = groups.stream().mapToInt(List::size).sum();
    long inputBytes = groups.stream().flatMap(List::stream)
        .mapToLong(task -> task.file().fileSizeInBytes()).sum();
    if (groups.isEmpty()) {
      return new TableMaintenance.Compaction("nothing-to-do", 0, 0, 0, 0,
          plan.skippedWithDeletes(), plan.skippedOtherFormat(), "no partition has "
              + settings.minInputFiles() + " or more small files without deletes");
    }
    if (dryRun) {
      int estimate = groups.stream().mapToInt(group -> (int) Math.max(1, Math.floorDiv(
          group.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum()
              + settings.targetFileSizeBytes() - 1, settings.targetFileSizeBytes()))).sum();
      return new TableMaintenance.Compaction("dry-run", groups.size(), inputFiles, inputBytes,
          estimate, plan.skippedWithDeletes(), plan.skippedOtherFormat(), null);
    }
    List<DataFile> written = new ArrayList<>();
    try {
      for (List<FileScanTask> group : groups) {
        written.addAll(rewriter.rewrite(table, group, settings.targetFileSizeBytes()));
      }
      RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(start.snapshotId())
          // The rewritten rows keep the sequence number they had, so that an equality delete
          // committed meanwhile still applies to them.
          .dataSequenceNumber(start.sequenceNumber());
      groups.stream().flatMap(List::stream).forEach(task -> rewrite.deleteFile(task.file()));
      appliedDeletes(groups).forEach(rewrite::deleteFile);
      written.forEach(rewrite::addFile);
      rewrite.commit();
    } catch (CommitStateUnknownException e) {
      // The rewrite may have been committed: its files must stay.
      throw e;
    } catch (ValidationException | CommitFailedException e) {
      deleteQuietly(table, written);
      LOG.info("compaction of {} gave up: {}", table.name(), e.getMessage());
      return new TableMaintenance.Compaction("gave-up", groups.size(), inputFiles, inputBytes,
          0, plan.skippedWithDeletes(), plan.skippedOtherFormat(), e.getMessage());
    } catch (RuntimeException e) {
      deleteQuietly(table, written);
      throw e;
    }
    return new TableMaintenance.Compaction("done", groups.size(), inputFiles, inputBytes,
        written.size(), plan.skippedWithDeletes(), plan.skippedOtherFormat(), null);
  }

  private record Plan(List<List<FileScanTask>> groups, int skippedWithDeletes,
      int skippedOtherFormat) {}

  private static Plan plan(Table table, Snapshot start, Compaction settings) {
    Map<String, List<FileScanTask>> byPartition = new LinkedHashMap<>();
    int withDeletes = 0;
    int otherFormat = 0;
    int taken = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(start.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        if (file.fileSizeInBytes() >= settings.targetFileSizeBytes()) {
          continue;
        }
        if (task.deletes().stream()
            .anyMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES)) {
          withDeletes++;
        } else if (file.format() != FileFormat.PARQUET) {
          otherFormat++;
        } else if (taken < MAX_INPUT_FILES) {
          String key = file.specId() + "/"
              + table.specs().get(file.specId()).partitionToPath(file.partition());
          byPartition.computeIfAbsent(key, unused -> new ArrayList<>()).add(task);
          taken++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<List<FileScanTask>> groups = byPartition.values().stream()
        .filter(group -> group.size() >= settings.minInputFiles()).toList();
    return new Plan(groups, withDeletes, otherFormat);
  }

  /**
   * The delete files the rewrite applied that name only files it rewrote (deletion vectors, and
   * position delete files scoped to one data file): nothing else refers to them once it commits.
   */
  private static Set<DeleteFile> appliedDeletes(List<List<FileScanTask>> groups) {
    Set<String> rewritten = groups.stream().flatMap(List::stream)
        .map(task -> task.file().location()).collect(Collectors.toSet());
    Map<String, DeleteFile> applied = new LinkedHashMap<>();
    groups.stream().flatMap(List::stream).flatMap(task -> task.deletes().stream())
        .filter(delete -> delete.content() == FileContent.POSITION_DELETES
            && rewritten.contains(delete.referencedDataFile()))
        .forEach(delete -> applied.putIfAbsent(delete.location(), delete));
    return new LinkedHashSet<>(applied.values());
  }

  private static void deleteQuietly(Table table, List<DataFile> written) {
    for (DataFile file : written) {
      try {
        table.io().deleteFile(file.location());
      } catch (RuntimeException e) {
        LOG.warn("could not delete {} after giving up a compaction of {}", file.location(),
            table.name(), e);
      }
    }
  }
}
