package io.floe.adapters.icechunk.format;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * The repo info file ({@code $ROOT/repo}), the only mutable object of a spec-2 repository:
 * branches, tags, every snapshot's summary and the ops log. Fields Floe does not interpret
 * (config, feature flags, extra) are carried over unchanged when it rewrites the file.
 */
public record RepoInfo(SpecVersion specVersion, SortedMap<String, ObjectId12> branches,
    SortedMap<String, ObjectId12> tags, List<String> deletedTags,
    SortedMap<ObjectId12, SnapshotInfo> snapshots, Status status, List<MetadataItem> metadata,
    List<OpsLogEntry> latestUpdates, String repoBeforeUpdates, byte[] config,
    int[] enabledFeatureFlags, int[] disabledFeatureFlags, byte[] extra) {

  /** A commit's summary as the repo file keeps it. {@code parentId} is null for the first. */
  public record SnapshotInfo(ObjectId12 id, ObjectId12 parentId, long flushedAtMicros,
      String message, List<MetadataItem> metadata, List<ObjectId12> prunedAncestorTxLogs) {}

  /** Availability: 0 online, 1 read-only, 2 offline. */
  public record Status(int availability, long setAtMicros, String reason) {
    public static Status online(long nowMicros) {
      return new Status(0, nowMicros, null);
    }
  }

  public RepoInfo withRefs(SortedMap<String, ObjectId12> newBranches,
      SortedMap<String, ObjectId12> newTags, List<String> newDeletedTags) {
    return new RepoInfo(specVersion, newBranches, newTags, newDeletedTags, snapshots, status,
        metadata, latestUpdates, repoBeforeUpdates, config, enabledFeatureFlags,
        disabledFeatureFlags, extra);
  }

  public RepoInfo withSnapshots(SortedMap<ObjectId12, SnapshotInfo> newSnapshots) {
    return new RepoInfo(specVersion, branches, tags, deletedTags, newSnapshots, status,
        metadata, latestUpdates, repoBeforeUpdates, config, enabledFeatureFlags,
        disabledFeatureFlags, extra);
  }

  public RepoInfo withOpsLog(List<OpsLogEntry> updates, String before) {
    return new RepoInfo(specVersion, branches, tags, deletedTags, snapshots, status,
        metadata, updates, before, config, enabledFeatureFlags, disabledFeatureFlags, extra);
  }

  /** Snapshot ids from {@code start} back to the first commit, newest first. */
  public List<SnapshotInfo> ancestry(ObjectId12 start) {
    List<SnapshotInfo> out = new ArrayList<>();
    ObjectId12 current = start;
    while (current != null) {
      SnapshotInfo info = snapshots.get(current);
      if (info == null) {
        throw new IcechunkFormatException("repo: snapshot " + current
            + " is referenced but not listed in the repo info file");
      }
      out.add(info);
      current = info.parentId();
      if (out.size() > snapshots.size()) {
        throw new IcechunkFormatException("repo: snapshot parents form a cycle at " + start);
      }
    }
    return out;
  }
}
