package io.floe.adapters.icechunk.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.icechunk.format.FlexJson;
import io.floe.adapters.icechunk.format.MetadataItem;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.OpsLogEntry;
import io.floe.adapters.icechunk.format.RepoInfo;
import io.floe.adapters.icechunk.format.RepoInfoCodec;
import io.floe.adapters.icechunk.format.Snapshot;
import io.floe.adapters.icechunk.format.SnapshotCodec;
import io.floe.adapters.icechunk.format.SnapshotFile;
import io.floe.adapters.icechunk.format.SpecVersion;
import io.floe.adapters.icechunk.format.TransactionLog;
import io.floe.adapters.icechunk.format.TransactionLogCodec;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An Icechunk repository at a prefix of a bucket. Reads spec versions 1 and 2; writes only spec 2.
 * Every change to branches, tags or history is a conditional replace of the {@code repo} file, so
 * concurrent writers (Floe or Python Icechunk) never lose each other's updates.
 */
public final class IcechunkRepository {
  /** Chunks of at most this many bytes go into the manifest, as Icechunk's default config does. */
  public static final int INLINE_CHUNK_THRESHOLD_BYTES = 512;
  /** The ops log entries kept in the repo file before older ones live only in backups. */
  public static final int MAX_UPDATES_PER_REPO_FILE = 1000;
  public static final String DEFAULT_BRANCH = "main";
  public static final String INITIAL_MESSAGE = "Repository initialized";
  /** Backup names count down from this instant so a listing shows the newest first. */
  private static final long YEAR_3000_MILLIS = Instant.parse("3000-01-01T00:00:00Z").toEpochMilli();
  private static final int MAX_REPO_UPDATE_ATTEMPTS = 100;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RepoObjects objects;
  private final SpecVersion specVersion;
  private final Clock clock;
  private final int maxUpdatesPerRepoFile;

  private IcechunkRepository(RepoObjects objects, SpecVersion specVersion, Clock clock) {
    this(objects, specVersion, clock, MAX_UPDATES_PER_REPO_FILE);
  }

  private IcechunkRepository(RepoObjects objects, SpecVersion specVersion, Clock clock,
      int maxUpdatesPerRepoFile) {
    this.objects = objects;
    this.specVersion = specVersion;
    this.clock = clock;
    this.maxUpdatesPerRepoFile = maxUpdatesPerRepoFile;
  }

  /** A copy that keeps fewer ops-log entries per repo file, so tests can reach the overflow. */
  IcechunkRepository withOpsLogLimit(int limit) {
    return new IcechunkRepository(objects, specVersion, clock, limit);
  }

  /** Opens an existing repository; spec 1 repositories (no repo file, refs/ instead) open read-only. */
  public static IcechunkRepository open(ObjectStore storage, StoragePath prefix) {
    RepoObjects objects = new RepoObjects(storage, prefix);
    Optional<ObjectStore.Stored> repo = objects.getRaw(RepoObjects.REPO_FILE);
    if (repo.isPresent()) {
      RepoInfo info = RepoInfoCodec.decode(objects.describe(RepoObjects.REPO_FILE), repo.get().data());
      return new IcechunkRepository(objects, info.specVersion(), Clock.systemUTC());
    }
    if (!storage.list(objects.key(RepoObjects.REFS_V1), 1).isEmpty()) {
      return new IcechunkRepository(objects, SpecVersion.V1, Clock.systemUTC());
    }
    throw new IcechunkNotFoundException("no Icechunk repository at " + describePrefix(prefix)
        + ": neither " + objects.describe(RepoObjects.REPO_FILE) + " nor "
        + objects.describe(RepoObjects.REFS_V1) + "/ exists");
  }

  /** Whether a repository (spec 1 or 2) exists at the prefix. */
  public static boolean exists(ObjectStore storage, StoragePath prefix) {
    RepoObjects objects = new RepoObjects(storage, prefix);
    return storage.exists(objects.key(RepoObjects.REPO_FILE))
        || !storage.list(objects.key(RepoObjects.REFS_V1), 1).isEmpty();
  }

  /**
   * Creates a spec-2 repository the way Icechunk does: the well-known empty first snapshot, its
   * empty transaction log, then the repo file with branch {@code main}, written only if absent.
   */
  public static IcechunkRepository create(ObjectStore storage, StoragePath prefix) {
    return create(storage, prefix, Set.of(), Clock.systemUTC());
  }

  /**
   * Creates a repository at a prefix whose root may already hold the named objects of the
   * prefix's owner (a claim marker, say); Icechunk never reads them. Anything else is refused.
   */
  public static IcechunkRepository create(ObjectStore storage, StoragePath prefix,
      Set<String> ownerObjects) {
    return create(storage, prefix, ownerObjects, Clock.systemUTC());
  }

  static IcechunkRepository create(ObjectStore storage, StoragePath prefix, Clock clock) {
    return create(storage, prefix, Set.of(), clock);
  }

  private static IcechunkRepository create(ObjectStore storage, StoragePath prefix,
      Set<String> ownerObjects, Clock clock) {
    RepoObjects objects = new RepoObjects(storage, prefix);
    requireNothingBut(storage, prefix, ownerObjects);
    long now = CommitInfo.toMicros(clock.instant());
    List<MetadataItem> rootMetadata = MetadataItem.encodeV2(
        Map.of("__icechunk", Map.of("is_root", true)));
    ObjectId12 id = ObjectId12.INITIAL_SNAPSHOT;
    Snapshot first = new Snapshot(SpecVersion.V2, id, null, List.of(), now, INITIAL_MESSAGE,
        rootMetadata, List.of());
    objects.putImmutable(RepoObjects.SNAPSHOTS + "/" + id, SnapshotCodec.encode(first));
    TransactionLog emptyLog = new TransactionLog(id, new TreeSet<>(), new TreeSet<>(),
        new TreeSet<>(), new TreeSet<>(), new TreeSet<>(), new TreeSet<>(), new TreeMap<>(),
        List.of());
    objects.putImmutable(RepoObjects.TRANSACTIONS + "/" + id, TransactionLogCodec.encode(emptyLog));
    SortedMap<String, ObjectId12> branches = new TreeMap<>(FlexJson::compareUtf8);
    branches.put(DEFAULT_BRANCH, id);
    SortedMap<ObjectId12, RepoInfo.SnapshotInfo> snapshots = new TreeMap<>();
    snapshots.put(id, new RepoInfo.SnapshotInfo(id, null, now, INITIAL_MESSAGE, rootMetadata, null));
    RepoInfo info = new RepoInfo(SpecVersion.V2, branches, new TreeMap<>(FlexJson::compareUtf8),
        List.of(), snapshots, RepoInfo.Status.online(now), List.of(),
        List.of(OpsLogEntry.simple(OpsLogEntry.Kind.REPO_INITIALIZED, now)), null, null, null,
        null, null);
    if (!storage.putIfAbsent(objects.key(RepoObjects.REPO_FILE), RepoInfoCodec.encode(info))) {
      throw new IcechunkException("cannot create an Icechunk repository at "
          + describePrefix(prefix) + ": another writer created one first");
    }
    return new IcechunkRepository(objects, SpecVersion.V2, clock);
  }

  private static void requireNothingBut(ObjectStore storage, StoragePath prefix,
      Set<String> ownerObjects) {
    for (StoragePath key : storage.list(prefix, ownerObjects.size() + 1)) {
      boolean owners = ownerObjects.stream().anyMatch(name -> key.equals(prefix.resolve(name)));
      if (!owners) {
        throw new IcechunkException("cannot create an Icechunk repository at "
            + describePrefix(prefix) + ": the location is not empty (it holds " + key + ")");
      }
    }
  }

  private static String describePrefix(StoragePath prefix) {
    return prefix.isRoot() ? "the bucket root" : "'" + prefix.value() + "'";
  }

  public SpecVersion specVersion() {
    return specVersion;
  }

  public StoragePath prefix() {
    return objects.root();
  }

  /** The repository's objects, for what walks them (garbage collection). */
  public RepoObjects objects() {
    return objects;
  }

  // ---------------------------------------------------------------- reading

  /** The current repo info: read fresh each call (spec 1: assembled from refs and snapshots). */
  public RepoInfo info() {
    if (specVersion == SpecVersion.V1) {
      return V1Refs.assemble(objects);
    }
    return RepoInfoCodec.decode(objects.describe(RepoObjects.REPO_FILE),
        objects.require(RepoObjects.REPO_FILE, "repo info file"));
  }

  public SortedMap<String, ObjectId12> branches() {
    return Collections.unmodifiableSortedMap(info().branches());
  }

  public SortedMap<String, ObjectId12> tags() {
    return Collections.unmodifiableSortedMap(info().tags());
  }

  public Map<String, Object> metadata() {
    return MetadataItem.decode(info().metadata(), specVersion,
        objects.describe(RepoObjects.REPO_FILE));
  }

  public ObjectId12 resolve(Ref ref) {
    return resolve(info(), ref);
  }

  private ObjectId12 resolve(RepoInfo info, Ref ref) {
    return switch (ref.kind()) {
      case BRANCH -> Optional.ofNullable(info.branches().get(ref.name())).orElseThrow(() ->
          new IcechunkNotFoundException("branch '" + ref.name() + "' does not exist in "
              + describePrefix(objects.root())));
      case TAG -> Optional.ofNullable(info.tags().get(ref.name())).orElseThrow(() ->
          new IcechunkNotFoundException("tag '" + ref.name() + "' does not exist in "
              + describePrefix(objects.root())));
      case SNAPSHOT -> {
        ObjectId12 id;
        try {
          id = ObjectId12.parse(ref.name());
        } catch (IllegalArgumentException e) {
          throw new IcechunkNotFoundException("'" + ref.name() + "' is not a snapshot id: "
              + e.getMessage());
        }
        if (specVersion == SpecVersion.V2 && !info.snapshots().containsKey(id)) {
          throw new IcechunkNotFoundException("snapshot " + id + " does not exist in "
              + describePrefix(objects.root()));
        }
        yield id;
      }
    };
  }

  /** One commit: its parent, message, time and metadata. */
  public CommitInfo commitInfo(ObjectId12 snapshot) {
    RepoInfo.SnapshotInfo s = info().snapshots().get(snapshot);
    if (s == null) {
      throw new IcechunkNotFoundException("snapshot " + snapshot + " does not exist in "
          + describePrefix(objects.root()));
    }
    return new CommitInfo(s.id(), s.parentId(), s.message(),
        CommitInfo.fromMicros(s.flushedAtMicros()), commitMetadata(s));
  }

  /** The history from {@code ref} back to the first commit, newest first. */
  public List<CommitInfo> log(Ref ref) {
    RepoInfo info = info();
    List<CommitInfo> out = new ArrayList<>();
    for (RepoInfo.SnapshotInfo s : info.ancestry(resolve(info, ref))) {
      out.add(new CommitInfo(s.id(), s.parentId(), s.message(),
          CommitInfo.fromMicros(s.flushedAtMicros()), commitMetadata(s)));
    }
    return out;
  }

  /** A commit's metadata; spec 2 keeps it in the repo file, spec 1 in the snapshot file. */
  public Map<String, Object> commitMetadata(RepoInfo.SnapshotInfo s) {
    String where = specVersion == SpecVersion.V1
        ? objects.describe(RepoObjects.SNAPSHOTS + "/" + s.id())
        : objects.describe(RepoObjects.REPO_FILE) + ", snapshot " + s.id();
    return MetadataItem.decode(s.metadata(), specVersion, where);
  }

  public ReadSession readonlySession(Ref ref) {
    ObjectId12 id = resolve(ref);
    return new ReadSession(objects, id, objects.snapshot(id));
  }

  // ---------------------------------------------------------------- writing

  public WritableSession writableSession(String branch) {
    RepoInfo info = writableInfo();
    ObjectId12 tip = resolve(info, Ref.branch(branch));
    return new WritableSession(this, objects, branch, tip, objects.snapshot(tip),
        inlineChunkThreshold(info));
  }

  public void createBranch(String name, ObjectId12 snapshot) {
    validateRefName(name);
    updateRepoInfo("create branch '" + name + "'", info -> {
      requireSnapshot(info, snapshot);
      if (info.branches().containsKey(name)) {
        throw new IcechunkException("branch '" + name + "' already exists");
      }
      SortedMap<String, ObjectId12> branches = new TreeMap<>(info.branches());
      branches.put(name, snapshot);
      return new Change(info.withRefs(branches, info.tags(), info.deletedTags()),
          OpsLogEntry.named(OpsLogEntry.Kind.BRANCH_CREATED, now(), name, null, null));
    });
  }

  public void deleteBranch(String name) {
    if (DEFAULT_BRANCH.equals(name)) {
      throw new IcechunkException("the '" + DEFAULT_BRANCH + "' branch cannot be deleted");
    }
    updateRepoInfo("delete branch '" + name + "'", info -> {
      ObjectId12 previous = info.branches().get(name);
      if (previous == null) {
        throw new IcechunkNotFoundException("branch '" + name + "' does not exist");
      }
      SortedMap<String, ObjectId12> branches = new TreeMap<>(info.branches());
      branches.remove(name);
      return new Change(info.withRefs(branches, info.tags(), info.deletedTags()),
          OpsLogEntry.named(OpsLogEntry.Kind.BRANCH_DELETED, now(), name, previous, null));
    });
  }

  /** Tags never move, and a deleted tag's name is never reused. */
  public void createTag(String name, ObjectId12 snapshot) {
    validateRefName(name);
    updateRepoInfo("create tag '" + name + "'", info -> {
      requireSnapshot(info, snapshot);
      if (info.tags().containsKey(name)) {
        throw new IcechunkException("tag '" + name + "' already exists");
      }
      if (info.deletedTags().contains(name)) {
        throw new IcechunkException("tag '" + name + "' was deleted; tag names cannot be reused");
      }
      SortedMap<String, ObjectId12> tags = new TreeMap<>(info.tags());
      tags.put(name, snapshot);
      return new Change(info.withRefs(info.branches(), tags, info.deletedTags()),
          OpsLogEntry.named(OpsLogEntry.Kind.TAG_CREATED, now(), name, null, null));
    });
  }

  public void deleteTag(String name) {
    updateRepoInfo("delete tag '" + name + "'", info -> {
      ObjectId12 previous = info.tags().get(name);
      if (previous == null) {
        throw new IcechunkNotFoundException("tag '" + name + "' does not exist");
      }
      SortedMap<String, ObjectId12> tags = new TreeMap<>(info.tags());
      tags.remove(name);
      List<String> deleted = new ArrayList<>(info.deletedTags());
      deleted.add(name);
      deleted.sort(FlexJson::compareUtf8);
      return new Change(info.withRefs(info.branches(), tags, deleted),
          OpsLogEntry.named(OpsLogEntry.Kind.TAG_DELETED, now(), name, previous, null));
    });
  }

  /** The repo config's {@code inline_chunk_threshold_bytes}, else Icechunk's default 512. */
  static int inlineChunkThreshold(RepoInfo info) {
    if (info.config() == null) {
      return INLINE_CHUNK_THRESHOLD_BYTES;
    }
    try {
      Object config = FlexJson.decode(info.config());
      if (config instanceof Map<?, ?> map && map.get("inline_chunk_threshold_bytes") instanceof Number n) {
        return n.intValue();
      }
    } catch (RuntimeException e) {
      // An unreadable config must not block writes; Icechunk's default applies.
    }
    return INLINE_CHUNK_THRESHOLD_BYTES;
  }

  private static void validateRefName(String name) {
    if (name == null || name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("invalid branch or tag name '" + name
          + "': must be non-empty and contain no '/'");
    }
  }

  private void requireSnapshot(RepoInfo info, ObjectId12 id) {
    if (!info.snapshots().containsKey(id)) {
      throw new IcechunkNotFoundException("snapshot " + id + " does not exist in "
          + describePrefix(objects.root()));
    }
  }

  long now() {
    return CommitInfo.toMicros(clock.instant());
  }

  RepoInfo writableInfo() {
    if (specVersion != SpecVersion.V2) {
      throw new UnsupportedRepositoryException("the repository at " + describePrefix(objects.root())
          + " uses Icechunk spec version " + specVersion.code()
          + "; Floe writes only spec version 2 repositories");
    }
    RepoInfo info = info();
    checkWritable(info);
    return info;
  }

  private void checkWritable(RepoInfo info) {
    if (info.specVersion() != SpecVersion.V2) {
      throw new UnsupportedRepositoryException("the repository at " + describePrefix(objects.root())
          + " uses Icechunk spec version " + info.specVersion().code()
          + "; Floe writes only spec version 2 repositories");
    }
    if (info.status().availability() != 0) {
      throw new UnsupportedRepositoryException("the repository at " + describePrefix(objects.root())
          + " is " + (info.status().availability() == 1 ? "read-only" : "offline")
          + (info.status().reason() == null ? "" : ": " + info.status().reason()));
    }
  }

  /** A change to apply to the repo file, and the ops log entry recording it. */
  record Change(RepoInfo next, OpsLogEntry entry) {}

  interface RepoChange {
    Change apply(RepoInfo current);
  }

  /**
   * Read-modify-conditional-write of the repo file. Before replacing it the current bytes are
   * copied to {@code overwritten/}, and the previous newest ops-log entry is pointed at that
   * copy. If another writer replaced the file meanwhile the change is recomputed against the new
   * contents (it may then throw, e.g. a commit conflict).
   */
  RepoInfo updateRepoInfo(String what, RepoChange change) {
    return updateRepoInfo(what, change, Map.of());
  }

  /**
   * As {@link #updateRepoInfo(String, RepoChange)}, first storing {@code newObjects} (a commit's
   * manifests, transaction log and snapshot) together with the backup of the current repo file:
   * they are independent, so their writes overlap, and all are stored before the repo file names
   * them. Nothing is written when the change is refused (a commit conflict, say).
   */
  RepoInfo updateRepoInfo(String what, RepoChange change, Map<String, byte[]> newObjects) {
    if (specVersion != SpecVersion.V2) {
      writableInfo();
    }
    boolean newObjectsStored = newObjects.isEmpty();
    for (int attempt = 0; attempt < MAX_REPO_UPDATE_ATTEMPTS; attempt++) {
      ObjectStore.Stored current = objects.getRaw(RepoObjects.REPO_FILE).orElseThrow(() ->
          new IcechunkNotFoundException("repo info file "
              + objects.describe(RepoObjects.REPO_FILE) + " does not exist"));
      RepoInfo info = RepoInfoCodec.decode(objects.describe(RepoObjects.REPO_FILE), current.data());
      checkWritable(info);
      Change c = change.apply(info);
      String backup = backupName();
      Map<String, byte[]> writes = new LinkedHashMap<>();
      if (!newObjectsStored) {
        writes.putAll(newObjects);
      }
      writes.put(RepoObjects.OVERWRITTEN + "/" + backup, current.data());
      objects.putAllImmutable(writes);
      newObjectsStored = true;
      List<OpsLogEntry> updates = new ArrayList<>();
      updates.add(c.entry());
      for (int i = 0; i < info.latestUpdates().size(); i++) {
        OpsLogEntry e = info.latestUpdates().get(i);
        updates.add(i == 0 ? e.withBackupPath(backup) : e);
      }
      String before = info.repoBeforeUpdates();
      if (updates.size() > maxUpdatesPerRepoFile) {
        // The dropped entries live on in the backup just written.
        updates = new ArrayList<>(updates.subList(0, maxUpdatesPerRepoFile));
        before = backup;
      }
      RepoInfo next = c.next().withOpsLog(updates, before);
      if (objects.storage().putIfVersion(objects.key(RepoObjects.REPO_FILE),
          RepoInfoCodec.encode(next), current.version())) {
        return next;
      }
    }
    throw new IcechunkException("could not " + what + " in " + describePrefix(objects.root())
        + ": the repo file kept changing under " + MAX_REPO_UPDATE_ATTEMPTS + " attempts");
  }

  private String backupName() {
    long countdown = YEAR_3000_MILLIS - clock.millis();
    return "repo." + countdown + "." + ObjectId12.random();
  }

  // ---------------------------------------------------------------- spec 1 refs

  /** Spec 1 keeps each ref in {@code refs/branch.NAME/ref.json} or {@code refs/tag.NAME/ref.json}. */
  static final class V1Refs {
    private V1Refs() {}

    static RepoInfo assemble(RepoObjects objects) {
      SortedMap<String, ObjectId12> branches = new TreeMap<>(FlexJson::compareUtf8);
      SortedMap<String, ObjectId12> tags = new TreeMap<>(FlexJson::compareUtf8);
      List<String> deletedTags = new ArrayList<>();
      for (StoragePath key : objects.storage().list(objects.key(RepoObjects.REFS_V1),
          Integer.MAX_VALUE)) {
        String rel = key.value().substring(objects.key(RepoObjects.REFS_V1).value().length() + 1);
        String[] parts = rel.split("/");
        if (parts.length != 2) {
          continue;
        }
        if (parts[1].equals("ref.json.deleted") && parts[0].startsWith("tag.")) {
          deletedTags.add(parts[0].substring(4));
          continue;
        }
        if (!parts[1].equals("ref.json")) {
          continue;
        }
        ObjectId12 target = readRef(objects, key);
        if (parts[0].startsWith("branch.")) {
          branches.put(parts[0].substring(7), target);
        } else if (parts[0].startsWith("tag.")) {
          tags.put(parts[0].substring(4), target);
        }
      }
      for (String deleted : deletedTags) {
        tags.remove(deleted);
      }
      SortedMap<ObjectId12, RepoInfo.SnapshotInfo> snapshots = new TreeMap<>();
      List<ObjectId12> pending = new ArrayList<>(branches.values());
      pending.addAll(tags.values());
      while (!pending.isEmpty()) {
        ObjectId12 id = pending.remove(pending.size() - 1);
        if (id == null || snapshots.containsKey(id)) {
          continue;
        }
        SnapshotFile s = objects.snapshot(id);
        snapshots.put(id, new RepoInfo.SnapshotInfo(id, s.parentId(), s.flushedAtMicros(),
            s.message(), s.metadata(), null));
        pending.add(s.parentId());
      }
      deletedTags.sort(FlexJson::compareUtf8);
      return new RepoInfo(SpecVersion.V1, branches, tags, deletedTags, snapshots,
          RepoInfo.Status.online(0), List.of(), List.of(), null, null, null, null, null);
    }

    private static ObjectId12 readRef(RepoObjects objects, StoragePath key) {
      byte[] data = objects.storage().get(key).map(ObjectStore.Stored::data).orElseThrow(() ->
          new IcechunkNotFoundException("ref file " + key.value() + " vanished while reading"));
      try {
        JsonNode json = JSON.readTree(data);
        return ObjectId12.parse(json.path("snapshot").asText());
      } catch (IOException | IllegalArgumentException e) {
        throw new IcechunkException("ref file " + key.value()
            + " is not a valid spec-1 ref (expected {\"snapshot\": \"<id>\"}): " + e.getMessage(), e);
      }
    }
  }
}
