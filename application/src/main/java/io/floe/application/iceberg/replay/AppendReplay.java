package io.floe.application.iceberg.replay;

import java.util.List;
import java.util.Objects;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.metrics.MetricsReporter;

/**
 * Replays an append onto the branch's current head with iceberg-core's {@code FastAppend}: the
 * head's manifests plus the manifests the client added, in a new manifest list the server writes,
 * with the next sequence number and a summary whose totals are computed on the new parent.
 */
final class AppendReplay {
  private static final MetricsReporter NO_REPORTS = report -> { };

  private AppendReplay() {}

  /** Whether a client's append can be replayed (else its conflict stands). */
  static boolean isAppend(SnapshotChange change, ReplayTarget target) {
    return "append".equals(change.operation())
        && addedManifests(change, target).stream()
            .allMatch(manifest -> manifest.content() == ManifestContent.DATA);
  }

  static TableMetadata replay(SnapshotChange change, TableMetadata current, ReplayTarget target) {
    Snapshot theirs = change.snapshot();
    List<ManifestFile> added = addedManifests(change, target);
    for (ManifestFile manifest : added) {
      if (current.spec(manifest.partitionSpecId()) == null) {
        throw new IllegalStateException("manifest " + manifest.path() + " has partition spec "
            + manifest.partitionSpecId() + ", which the table no longer has");
      }
    }
    StagedTableOperations ops =
        new StagedTableOperations(current, target.io(), theirs.snapshotId());
    AppendFiles append = new BaseTable(ops, target.table(), NO_REPORTS).newFastAppend()
        .toBranch(change.branch());
    SummaryProperties.carried(theirs.summary()).forEach(append::set);
    if (current.formatVersion() > 1 && added.stream().allMatch(AppendReplay::onlyAdds)) {
      // The client's manifests are reused as they are: their entries inherit the new snapshot's
      // id and sequence number from the new manifest list.
      added.forEach(manifest -> append.appendManifest(new ReplayedManifest(manifest)));
      String size = theirs.summary() == null ? null
          : theirs.summary().get(SnapshotSummary.ADDED_FILE_SIZE_PROP);
      if (size != null) {
        // Manifests do not carry file sizes, so the producer cannot count them itself.
        append.set(SnapshotSummary.ADDED_FILE_SIZE_PROP, size);
      }
    } else {
      // A manifest the client merged with older ones also lists the base's files: only the files
      // the client added are appended, in a manifest the server writes.
      theirs.addedDataFiles(target.io()).forEach(append::appendFile);
    }
    append.commit();
    return ops.staged().orElseThrow(() ->
        new IllegalStateException("the replayed append committed nothing"));
  }

  /** The manifests the client wrote for its snapshot, each checked to lie inside the table. */
  private static List<ManifestFile> addedManifests(SnapshotChange change, ReplayTarget target) {
    Snapshot theirs = change.snapshot();
    target.guard().requireWithin("manifest list of snapshot " + theirs.snapshotId(),
        theirs.manifestListLocation());
    List<ManifestFile> added = theirs.allManifests(target.io()).stream()
        .filter(manifest -> Objects.equals(manifest.snapshotId(), theirs.snapshotId()))
        .toList();
    for (ManifestFile manifest : added) {
      target.guard().requireWithin("manifest", manifest.path());
    }
    return added;
  }

  private static boolean onlyAdds(ManifestFile manifest) {
    return !manifest.hasExistingFiles() && !manifest.hasDeletedFiles();
  }
}
