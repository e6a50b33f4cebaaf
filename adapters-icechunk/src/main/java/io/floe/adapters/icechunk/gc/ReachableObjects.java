package io.floe.adapters.icechunk.gc;

import io.floe.adapters.icechunk.format.ObjectId12;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * What a repository's branches and tags reach: every snapshot of their ancestries, the
 * manifests, chunk objects and transaction logs of those snapshots, the repo info file and the
 * backups its ops log names; and per reachable snapshot the Iceberg table pointers of its commit
 * metadata ({@code iceberg:table_versions}), which a collector follows into the tables' files.
 * Virtual chunk locations lie outside the repository and are listed for information only.
 */
public record ReachableObjects(SortedMap<String, ObjectId12> branches,
    SortedMap<String, ObjectId12> tags, Set<ObjectId12> snapshots, Set<ObjectId12> manifests,
    Set<ObjectId12> chunks, Set<ObjectId12> transactionLogs, Set<String> repoInfoFiles,
    SortedMap<ObjectId12, Map<String, String>> tablePointers, Set<String> virtualLocations) {

  /** Whether a stored object (key relative to the repository prefix) is reachable. */
  public boolean reaches(StoredRepoObject object) {
    String name = object.key().substring(object.key().indexOf('/') + 1);
    return switch (object.kind()) {
      case SNAPSHOT -> contains(snapshots, name);
      case MANIFEST -> contains(manifests, name);
      case CHUNK -> contains(chunks, name);
      case TRANSACTION_LOG -> contains(transactionLogs, name);
      case REPO_INFO, REPO_INFO_BACKUP -> repoInfoFiles.contains(object.key());
      // Spec-1 refs are the roots themselves, and other files are not Icechunk's to judge.
      case REF, OTHER -> true;
    };
  }

  /** The stored objects nothing reaches: what a collector may delete once they are old enough. */
  public List<StoredRepoObject> unreachable(List<StoredRepoObject> stored) {
    return stored.stream().filter(o -> !reaches(o)).toList();
  }

  private static boolean contains(Set<ObjectId12> ids, String name) {
    try {
      return ids.contains(ObjectId12.parse(name));
    } catch (IllegalArgumentException e) {
      return false; // not an Icechunk object name, so nothing of this repository points at it
    }
  }
}
