package io.floe.application.model;

import java.time.Instant;
import java.util.List;

/**
 * What a maintenance run of one table did, or with {@code dryRun} would do: one report per step
 * that was asked for, null for a step that was not.
 */
public record TableMaintenance(String table, boolean dryRun, Compaction compaction,
    Expiry expiry, Manifests manifests, Orphans orphans) {

  /**
   * Bin-packing: {@code groups} partitions had at least the minimum number of small files;
   * {@code inputFiles} of {@code inputBytes} were (would be) rewritten into {@code outputFiles}
   * (a dry run estimates them from the target size). Files with position or equality deletes are
   * left alone ({@code skippedWithDeletes}), as are files in a format other than Parquet
   * ({@code skippedOtherFormat}). {@code outcome} is {@code done}, {@code nothing-to-do},
   * {@code dry-run} or {@code gave-up} (a concurrent change conflicted; nothing was committed).
   */
  public record Compaction(String outcome, int groups, int inputFiles, long inputBytes,
      int outputFiles, int skippedWithDeletes, int skippedOtherFormat, String detail) {}

  /**
   * Snapshot expiry: the snapshots removed (would be removed) and how many remain; and the files
   * only expired snapshots referenced that were not deleted because they lie outside the table
   * ({@code refusedFiles}: the table's metadata named another table's file, or none's).
   */
  public record Expiry(String outcome, Instant olderThan, int retainLast,
      List<Long> expiredSnapshotIds, int remainingSnapshots, List<String> refusedFiles) {
    public Expiry {
      expiredSnapshotIds = List.copyOf(expiredSnapshotIds);
      refusedFiles = List.copyOf(refusedFiles);
    }
  }

  /** Manifest rewrite: the current snapshot's manifests before and after. */
  public record Manifests(String outcome, int manifestsBefore, int manifestsAfter) {}

  /**
   * Orphan removal: the files under the table that no metadata references and were last written
   * before {@code olderThan}, deleted (would be deleted); younger unreferenced files are spared.
   * {@code truncated} says the table holds more objects than one run looks at.
   */
  public record Orphans(String outcome, Instant olderThan, List<File> files, long totalBytes,
      int sparedYoung, boolean truncated) {
    public Orphans {
      files = List.copyOf(files);
    }
  }

  /** A file, keyed relative to the table's directory. */
  public record File(String key, long sizeBytes, Instant lastModified) {}
}
