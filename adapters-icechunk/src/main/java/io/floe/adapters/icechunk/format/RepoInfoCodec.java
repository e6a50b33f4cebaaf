package io.floe.adapters.icechunk.format;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Reads and writes the repo info file ({@code Repo} table of repo.fbs). */
public final class RepoInfoCodec {
  // Repo table slots.
  private static final int SPEC_VERSION = 0;
  private static final int TAGS = 1;
  private static final int BRANCHES = 2;
  private static final int DELETED_TAGS = 3;
  private static final int SNAPSHOTS = 4;
  private static final int STATUS = 5;
  private static final int METADATA = 6;
  private static final int LATEST_UPDATES = 7;
  private static final int REPO_BEFORE_UPDATES = 8;
  private static final int CONFIG = 9;
  private static final int ENABLED_FLAGS = 10;
  private static final int DISABLED_FLAGS = 11;
  private static final int EXTRA = 12;
  private static final int REPO_SLOTS = 13;

  private RepoInfoCodec() {}

  public static RepoInfo decode(String objectName, byte[] file) {
    Envelope.Opened opened = Envelope.open(objectName, file, FileType.REPO_INFO);
    try {
      return decodeTable(objectName, FbTable.root(opened.payload()));
    } catch (RuntimeException e) {
      throw FbWrite.corrupt(objectName, "repo info", e);
    }
  }

  private static RepoInfo decodeTable(String objectName, FbTable t) {
    int version = t.u8(SPEC_VERSION, 0);
    SpecVersion spec = SpecVersion.ofCode(version);
    if (spec == null) {
      throw new IcechunkFormatException(objectName + ": unsupported spec version " + version
          + " in the repo info table (Floe reads versions 1 and 2)");
    }
    List<FbTable> infos = t.tables(SNAPSHOTS);
    List<ObjectId12> ids = new ArrayList<>(infos.size());
    for (FbTable info : infos) {
      ids.add(new ObjectId12(info.struct(0, ObjectId12.LENGTH)));
    }
    SortedMap<ObjectId12, RepoInfo.SnapshotInfo> snapshots = new TreeMap<>();
    for (int i = 0; i < infos.size(); i++) {
      FbTable info = infos.get(i);
      // The schema default is 0 (the first snapshot), so an absent field is index 0, not "none".
      int parentIndex = info.i32(1, 0);
      ObjectId12 parent = parentIndex < 0 ? null : ids.get(parentIndex);
      List<ObjectId12> pruned = null;
      if (info.has(5)) {
        pruned = info.structs(5, ObjectId12.LENGTH).stream().map(ObjectId12::new).toList();
      }
      snapshots.put(ids.get(i), new RepoInfo.SnapshotInfo(ids.get(i), parent, info.u64(2, 0),
          info.string(3), FbWrite.readMetadata(info, 4), pruned));
    }
    FbTable statusTable = t.table(STATUS);
    RepoInfo.Status status = statusTable == null ? RepoInfo.Status.online(0)
        : readStatus(statusTable);
    List<OpsLogEntry> updates = new ArrayList<>();
    for (FbTable u : t.tables(LATEST_UPDATES)) {
      OpsLogEntry entry = readUpdate(u);
      if (entry != null) {
        updates.add(entry);
      }
    }
    return new RepoInfo(spec, readRefs(t, BRANCHES, ids), readRefs(t, TAGS, ids),
        t.strings(DELETED_TAGS), snapshots, status, FbWrite.readMetadata(t, METADATA), updates,
        t.string(REPO_BEFORE_UPDATES), t.bytes(CONFIG),
        t.has(ENABLED_FLAGS) ? t.u16s(ENABLED_FLAGS) : null,
        t.has(DISABLED_FLAGS) ? t.u16s(DISABLED_FLAGS) : null, t.bytes(EXTRA));
  }

  private static SortedMap<String, ObjectId12> readRefs(FbTable t, int slot, List<ObjectId12> ids) {
    SortedMap<String, ObjectId12> refs = new TreeMap<>(FlexJson::compareUtf8);
    for (FbTable ref : t.tables(slot)) {
      refs.put(ref.string(0), ids.get((int) ref.u32(1, 0)));
    }
    return refs;
  }

  private static RepoInfo.Status readStatus(FbTable s) {
    return new RepoInfo.Status(s.u8(0, 0), s.u64(1, 0), s.string(2));
  }

  private static ObjectId12 id(FbTable t, int slot) {
    byte[] b = t.struct(slot, ObjectId12.LENGTH);
    return b == null ? null : new ObjectId12(b);
  }

  /** Null for update kinds newer than this reader. */
  private static OpsLogEntry readUpdate(FbTable u) {
    OpsLogEntry.Kind kind = OpsLogEntry.Kind.ofCode(u.u8(0, 0));
    if (kind == null) {
      return null;
    }
    FbTable v = u.table(1);
    long at = u.u64(2, 0);
    String backup = u.string(3);
    String name = null;
    ObjectId12 previous = null;
    ObjectId12 next = null;
    int from = 0;
    int to = 0;
    RepoInfo.Status status = null;
    int flagId = 0;
    boolean flagValue = false;
    boolean flagIsSet = false;
    if (v != null) {
      switch (kind) {
        case REPO_MIGRATED -> {
          from = v.u8(0, 0);
          to = v.u8(1, 0);
        }
        case REPO_STATUS_CHANGED -> status = v.table(0) == null ? null : readStatus(v.table(0));
        case TAG_CREATED, BRANCH_CREATED -> name = v.string(0);
        case TAG_DELETED, BRANCH_DELETED, BRANCH_RESET -> {
          name = v.string(0);
          previous = id(v, 1);
        }
        case NEW_COMMIT -> {
          name = v.string(0);
          next = id(v, 1);
        }
        case COMMIT_AMENDED -> {
          name = v.string(0);
          previous = id(v, 1);
          next = id(v, 2);
        }
        case NEW_DETACHED_SNAPSHOT -> next = id(v, 0);
        case FEATURE_FLAG_CHANGED -> {
          flagId = v.u16(0, 0);
          flagValue = v.bool(1, false);
          flagIsSet = v.bool(2, false);
        }
        default -> { }
      }
    }
    return new OpsLogEntry(kind, at, backup, name, previous, next, from, to, status, flagId,
        flagValue, flagIsSet);
  }

  public static byte[] encode(RepoInfo repo) {
    if (repo.specVersion() != SpecVersion.V2) {
      throw new IllegalArgumentException("Floe writes only spec version 2 repo info files");
    }
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    List<ObjectId12> ids = new ArrayList<>(repo.snapshots().keySet());
    Map<ObjectId12, Integer> indexOf = new HashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      indexOf.put(ids.get(i), i);
    }
    int[] infoOffsets = new int[ids.size()];
    for (int i = 0; i < ids.size(); i++) {
      RepoInfo.SnapshotInfo info = repo.snapshots().get(ids.get(i));
      int message = b.createString(info.message());
      int metadata = FbWrite.metadataVector(b, info.metadata());
      int pruned = info.prunedAncestorTxLogs() == null ? 0 : FbWrite.idVector(b,
          info.prunedAncestorTxLogs().stream().map(ObjectId12::bytes).toList(), ObjectId12.LENGTH);
      b.startTable(6);
      FbWrite.addIdStruct(b, 0, info.id().bytes());
      Integer parent = info.parentId() == null ? Integer.valueOf(-1) : indexOf.get(info.parentId());
      if (parent == null) {
        throw new IllegalArgumentException("snapshot " + info.id() + " has parent "
            + info.parentId() + " which the repo info does not list");
      }
      b.addInt(1, parent, 0);
      b.addLong(2, info.flushedAtMicros(), 0);
      b.addOffset(3, message, 0);
      b.addOffset(4, metadata, 0);
      if (pruned != 0) {
        b.addOffset(5, pruned, 0);
      }
      infoOffsets[i] = b.endTable();
    }
    int snapshots = FbWrite.tableVector(b, infoOffsets);
    int tags = refVector(b, repo.tags(), indexOf);
    int branches = refVector(b, repo.branches(), indexOf);
    int[] deleted = repo.deletedTags().stream().sorted(FlexJson::compareUtf8)
        .mapToInt(b::createString).toArray();
    int deletedTags = b.createVectorOfTables(deleted);
    int status = writeStatus(b, repo.status());
    int metadata = FbWrite.metadataVector(b, repo.metadata());
    int[] updateOffsets = new int[repo.latestUpdates().size()];
    for (int i = 0; i < updateOffsets.length; i++) {
      updateOffsets[i] = writeUpdate(b, repo.latestUpdates().get(i));
    }
    int updates = FbWrite.tableVector(b, updateOffsets);
    int before = repo.repoBeforeUpdates() == null ? 0 : b.createString(repo.repoBeforeUpdates());
    int config = repo.config() == null ? 0 : b.createByteVector(repo.config());
    int enabled = repo.enabledFeatureFlags() == null ? 0
        : FbWrite.u16Vector(b, repo.enabledFeatureFlags());
    int disabled = repo.disabledFeatureFlags() == null ? 0
        : FbWrite.u16Vector(b, repo.disabledFeatureFlags());
    int extra = repo.extra() == null ? 0 : b.createByteVector(repo.extra());

    b.startTable(REPO_SLOTS);
    b.addByte(SPEC_VERSION, (byte) repo.specVersion().code(), 0);
    b.addOffset(TAGS, tags, 0);
    b.addOffset(BRANCHES, branches, 0);
    b.addOffset(DELETED_TAGS, deletedTags, 0);
    b.addOffset(SNAPSHOTS, snapshots, 0);
    b.addOffset(STATUS, status, 0);
    b.addOffset(METADATA, metadata, 0);
    b.addOffset(LATEST_UPDATES, updates, 0);
    b.addOffset(REPO_BEFORE_UPDATES, before, 0);
    b.addOffset(CONFIG, config, 0);
    b.addOffset(ENABLED_FLAGS, enabled, 0);
    b.addOffset(DISABLED_FLAGS, disabled, 0);
    b.addOffset(EXTRA, extra, 0);
    byte[] flatbuffer = FbWrite.finish(b, b.endTable());
    return Envelope.seal(SpecVersion.V2, FileType.REPO_INFO, flatbuffer);
  }

  private static int refVector(FlatBufferBuilder b, SortedMap<String, ObjectId12> refs,
      Map<ObjectId12, Integer> indexOf) {
    List<Map.Entry<String, ObjectId12>> sorted = new ArrayList<>(refs.entrySet());
    sorted.sort((x, y) -> FlexJson.compareUtf8(x.getKey(), y.getKey()));
    int[] offsets = new int[sorted.size()];
    for (int i = 0; i < offsets.length; i++) {
      Integer index = indexOf.get(sorted.get(i).getValue());
      if (index == null) {
        throw new IllegalArgumentException("ref " + sorted.get(i).getKey() + " points to snapshot "
            + sorted.get(i).getValue() + " which the repo info does not list");
      }
      int name = b.createString(sorted.get(i).getKey());
      b.startTable(2);
      b.addOffset(0, name, 0);
      b.addInt(1, index, 0);
      offsets[i] = b.endTable();
    }
    return FbWrite.tableVector(b, offsets);
  }

  private static int writeStatus(FlatBufferBuilder b, RepoInfo.Status s) {
    int reason = s.reason() == null ? 0 : b.createString(s.reason());
    b.startTable(3);
    b.addByte(0, (byte) s.availability(), 0);
    b.addLong(1, s.setAtMicros(), 0);
    b.addOffset(2, reason, 0);
    return b.endTable();
  }

  private static int writeUpdate(FlatBufferBuilder b, OpsLogEntry e) {
    int value = switch (e.kind()) {
      case REPO_MIGRATED -> {
        b.startTable(2);
        b.addByte(0, (byte) e.fromVersion(), 0);
        b.addByte(1, (byte) e.toVersion(), 0);
        yield b.endTable();
      }
      case REPO_STATUS_CHANGED -> {
        int status = e.status() == null ? 0 : writeStatus(b, e.status());
        b.startTable(1);
        b.addOffset(0, status, 0);
        yield b.endTable();
      }
      case TAG_CREATED, BRANCH_CREATED -> {
        int name = b.createString(e.name());
        b.startTable(1);
        b.addOffset(0, name, 0);
        yield b.endTable();
      }
      case TAG_DELETED, BRANCH_DELETED, BRANCH_RESET -> {
        int name = b.createString(e.name());
        b.startTable(2);
        b.addOffset(0, name, 0);
        FbWrite.addIdStruct(b, 1, e.previousSnapId().bytes());
        yield b.endTable();
      }
      case NEW_COMMIT -> {
        int name = b.createString(e.name());
        b.startTable(2);
        b.addOffset(0, name, 0);
        FbWrite.addIdStruct(b, 1, e.newSnapId().bytes());
        yield b.endTable();
      }
      case COMMIT_AMENDED -> {
        int name = b.createString(e.name());
        b.startTable(3);
        b.addOffset(0, name, 0);
        FbWrite.addIdStruct(b, 1, e.previousSnapId().bytes());
        FbWrite.addIdStruct(b, 2, e.newSnapId().bytes());
        yield b.endTable();
      }
      case NEW_DETACHED_SNAPSHOT -> {
        b.startTable(1);
        FbWrite.addIdStruct(b, 0, e.newSnapId().bytes());
        yield b.endTable();
      }
      case FEATURE_FLAG_CHANGED -> {
        b.startTable(3);
        b.addShort(0, (short) e.flagId(), 0);
        b.addBoolean(1, e.flagValue(), false);
        b.addBoolean(2, e.flagIsSet(), false);
        yield b.endTable();
      }
      default -> {
        b.startTable(0);
        yield b.endTable();
      }
    };
    int backup = e.backupPath() == null ? 0 : b.createString(e.backupPath());
    b.startTable(4);
    b.addByte(0, (byte) e.kind().code(), 0);
    b.addOffset(1, value, 0);
    b.addLong(2, e.updatedAtMicros(), 0);
    b.addOffset(3, backup, 0);
    return b.endTable();
  }
}
