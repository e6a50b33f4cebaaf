package io.floe.adapters.icechunk.gc;

import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ObjectStore;
import io.floe.adapters.icechunk.engine.RepoObjects;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.Manifest;
import io.floe.adapters.icechunk.format.ManifestCodec;
import io.floe.adapters.icechunk.format.ManifestFileInfo;
import io.floe.adapters.icechunk.format.ManifestRef;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.OpsLogEntry;
import io.floe.adapters.icechunk.format.RepoInfo;
import io.floe.adapters.icechunk.format.SnapshotFile;
import io.floe.adapters.icechunk.format.SpecVersion;
import io.floe.adapters.icechunk.icechest.IcebergConvention;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Groundwork for garbage collection: what a repository's refs reach, and what it stores. A
 * collector deletes {@code reachable.unreachable(stored)} past its grace period; this class
 * deletes nothing. A reachable object that cannot be read stops the walk with an exception,
 * since deciding on partial knowledge could delete live data.
 */
public final class RepositoryReachability {
  private RepositoryReachability() {}

  /** Walks every branch and tag and the ancestry of each. */
  public static ReachableObjects walk(IcechunkRepository repository) {
    RepoObjects objects = repository.objects();
    RepoInfo info = repository.info();
    Set<ObjectId12> snapshots = new TreeSet<>();
    Deque<ObjectId12> roots = new ArrayDeque<>();
    roots.addAll(info.branches().values());
    roots.addAll(info.tags().values());
    for (ObjectId12 root : roots) {
      for (RepoInfo.SnapshotInfo s : info.ancestry(root)) {
        if (!snapshots.add(s.id())) {
          break; // the rest of this ancestry was walked from another ref
        }
      }
    }
    Set<ObjectId12> manifests = new TreeSet<>();
    Set<ObjectId12> transactionLogs = new TreeSet<>();
    SortedMap<ObjectId12, Map<String, String>> pointers = new TreeMap<>();
    for (ObjectId12 id : snapshots) {
      SnapshotFile snapshot = objects.snapshot(id);
      snapshot.manifestFiles().stream().map(ManifestFileInfo::id).forEach(manifests::add);
      if (snapshot.specVersion() == SpecVersion.V1 || snapshot.manifestFiles().isEmpty()) {
        // Spec 1 lists no manifest files; the nodes' refs name them.
        for (NodeSnapshot n : snapshot.nodes()) {
          n.manifests().stream().map(ManifestRef::manifestId).forEach(manifests::add);
        }
      }
      transactionLogs.add(id);
      pointers.put(id, tablePointers(repository.commitMetadata(info.snapshots().get(id))));
    }
    Set<ObjectId12> chunks = new TreeSet<>();
    Set<String> virtual = new TreeSet<>();
    for (ObjectId12 id : manifests) {
      Manifest manifest = readManifest(objects, id);
      for (SortedMap<?, ChunkPayload> refs : manifest.arrays().values()) {
        for (ChunkPayload payload : refs.values()) {
          if (payload instanceof ChunkPayload.Native nat) {
            chunks.add(nat.chunkId());
          } else if (payload instanceof ChunkPayload.Virtual v) {
            virtual.add(v.location());
          }
        }
      }
    }
    return new ReachableObjects(Collections.unmodifiableSortedMap(info.branches()),
        Collections.unmodifiableSortedMap(info.tags()), snapshots, manifests, chunks,
        transactionLogs, repoInfoFiles(repository, info), pointers, virtual);
  }

  /** Every object stored under the repository's prefix, in key order. */
  public static List<StoredRepoObject> stored(IcechunkRepository repository) {
    RepoObjects objects = repository.objects();
    String prefix = objects.root().isRoot() ? "" : objects.root().value() + "/";
    List<StoredRepoObject> out = new ArrayList<>();
    for (ObjectStore.Listed o : objects.storage().listObjects(objects.root(), Integer.MAX_VALUE)) {
      String key = o.key().value().substring(prefix.length());
      out.add(new StoredRepoObject(key, StoredRepoObject.kindOf(key), o.sizeBytes(),
          o.lastModified()));
    }
    return out;
  }

  /** The string entries of a commit's iceberg:table_versions (malformed ones are not pointers). */
  static Map<String, String> tablePointers(Map<String, Object> commitMetadata) {
    Map<String, String> out = new TreeMap<>();
    if (commitMetadata.get(IcebergConvention.TABLE_VERSIONS_KEY) instanceof Map<?, ?> map) {
      map.forEach((table, uri) -> {
        if (uri instanceof String s) {
          out.put(String.valueOf(table), s);
        }
      });
    }
    return out;
  }

  /** Read without caching: a walk touches every manifest once. */
  private static Manifest readManifest(RepoObjects objects, ObjectId12 id) {
    String relative = RepoObjects.MANIFESTS + "/" + id;
    return ManifestCodec.decode(objects.describe(relative), objects.require(relative, "manifest"));
  }

  /** The repo file and the backups its ops log still names (spec 2; spec 1 has none). */
  private static Set<String> repoInfoFiles(IcechunkRepository repository, RepoInfo info) {
    Set<String> out = new LinkedHashSet<>();
    if (repository.specVersion() != SpecVersion.V2) {
      return out;
    }
    out.add(RepoObjects.REPO_FILE);
    for (OpsLogEntry e : info.latestUpdates()) {
      if (e.backupPath() != null) {
        out.add(RepoObjects.OVERWRITTEN + "/" + e.backupPath());
      }
    }
    if (info.repoBeforeUpdates() != null) {
      out.add(RepoObjects.OVERWRITTEN + "/" + info.repoBeforeUpdates());
    }
    return out;
  }
}
