package io.floe.adapters.icechunk.port;

import io.floe.adapters.icechunk.engine.CommitConflictException;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.RefNames;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.icechest.DeclaredTable;
import io.floe.adapters.icechunk.icechest.IcechestTables;
import io.floe.adapters.icechunk.icechest.SnapshotTables;
import io.floe.adapters.icechunk.icechest.TableCommitSession;
import io.floe.adapters.icechunk.icechest.TableConflictException;
import io.floe.adapters.icechunk.icechest.TablesProblem;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.RepoCommitLocks;
import io.floe.application.port.out.RepoVersions;
import io.floe.application.port.out.UnitOfWork;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Repo tables' pointers, kept by the icechest convention in each repo's Icechunk history: the
 * application's {@link RepoVersions} (what each version declares) and its {@link MetadataPointers}
 * for {@link BranchTable} keys (a branch's pointers, moved by one Icechunk commit). A move takes
 * the branch's lock ({@link RepoCommitLocks}) in the caller's transaction first, so Floe's own
 * writers take turns on a branch; writers outside Floe can still win, and a move that loses to one
 * that touched its tables reports it. A snapshot never changes, so what it declares is cached by
 * snapshot id.
 */
public final class BucketRepoTablePointers implements RepoVersions, MetadataPointers {
  /** The Zarr group that declares the tables Floe creates. */
  static final String DECLARING_GROUP = "/";
  /** How often a commit rebases onto others' unrelated commits before the caller re-plans. */
  static final int REBASE_ATTEMPTS = 5;
  private static final int CACHED_SNAPSHOTS = 512;

  private final BucketStorageProvider storage;
  private final RepoCommitLocks locks;
  private final UnitOfWork unitOfWork;
  private final Map<String, SnapshotTables> declared = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, SnapshotTables> eldest) {
      return size() > CACHED_SNAPSHOTS;
    }
  };

  public BucketRepoTablePointers(BucketStorageProvider storage, RepoCommitLocks locks,
      UnitOfWork unitOfWork) {
    this.storage = storage;
    this.locks = locks;
    this.unitOfWork = unitOfWork;
  }

  @Override
  public Version read(BucketConfig bucket, StoragePath prefix, String ref) {
    return ApplicationErrors.translated(() -> {
      IcechunkRepository repository = open(bucket, prefix);
      Ref resolved = RefNames.resolve(repository, ref);
      ObjectId12 snapshot = repository.resolve(resolved);
      return toVersion(ref, resolved.kind(), tablesOf(bucket, prefix, repository, snapshot));
    });
  }

  @Override
  public Optional<String> current(Key key) {
    BranchTable table = branchTable(key);
    RepoBranch branch = table.branch();
    return Optional.ofNullable(read(branch.bucket(), branch.prefix(), branch.name()).tables()
            .get(table.table()))
        .filter(found -> found.location().equals(table.location()))
        .flatMap(RepoTable::metadataLocation);
  }

  @Override
  public boolean swap(List<Move> moves, Instant now) {
    if (moves.isEmpty()) {
      return true;
    }
    RepoBranch branch = branchOf(moves.stream().map(Move::key).toList());
    return unitOfWork.inTransaction(() -> {
      locks.lockBranch(branch.repoId(), branch.name());
      return ApplicationErrors.translated(() -> commit(branch, moves));
    });
  }

  @Override
  public void lockForCommit(Collection<Key> keys) {
    keys.stream().map(key -> branchTable(key).branch()).distinct()
        .sorted(Comparator.comparing((RepoBranch b) -> b.repoId()).thenComparing(RepoBranch::name))
        .forEach(branch -> locks.lockBranch(branch.repoId(), branch.name()));
  }

  /** One Icechunk commit of every move, on top of whatever others committed meanwhile. */
  private boolean commit(RepoBranch branch, List<Move> moves) {
    TableCommitSession session =
        TableCommitSession.open(open(branch.bucket(), branch.prefix()), branch.name());
    if (!stillAsPlanned(session.base(), moves)) {
      return false;
    }
    for (Move move : moves) {
      BranchTable table = branchTable(move.key());
      if (move.expected().isEmpty()) {
        session.createTable(DECLARING_GROUP, table.table(), table.location(), move.next());
      } else {
        session.moveTable(table.table(), move.next());
      }
    }
    for (int attempt = 1; ; attempt++) {
      try {
        session.commit(message(moves), Map.of());
        return true;
      } catch (CommitConflictException e) {
        if (attempt == REBASE_ATTEMPTS) {
          return false;
        }
        try {
          session.rebase();
        } catch (TableConflictException moved) {
          return false;
        }
      }
    }
  }

  /**
   * Whether every table is as the mover found it: a moved one declared at the same location and
   * still at its expected pointer, a declared one not declared yet.
   */
  private static boolean stillAsPlanned(SnapshotTables tip, List<Move> moves) {
    for (Move move : moves) {
      BranchTable key = branchTable(move.key());
      DeclaredTable table = tip.tables().get(key.table());
      boolean asPlanned = move.expected().isEmpty() ? table == null
          : table != null && table.location().equals(key.location())
              && Objects.equals(table.metadataLocation().orElse(null), move.expected().get());
      if (!asPlanned) {
        return false;
      }
    }
    return true;
  }

  /** What the Icechunk log says of the commit. */
  private static String message(List<Move> moves) {
    List<String> declared = moves.stream().filter(move -> move.expected().isEmpty())
        .map(move -> branchTable(move.key()).table()).toList();
    if (declared.size() == moves.size()) {
      return "Create Iceberg table " + String.join(", ", declared) + " through Floe";
    }
    return "Iceberg commit to " + (moves.size() == 1
        ? "table " + branchTable(moves.get(0).key()).table()
        : moves.size() + " tables") + " through Floe";
  }

  private static RepoBranch branchOf(List<Key> keys) {
    RepoBranch branch = branchTable(keys.get(0)).branch();
    for (Key key : keys) {
      if (!branchTable(key).branch().equals(branch)) {
        throw new IllegalArgumentException("one commit moves the tables of one branch, not of "
            + branch.name() + " and " + branchTable(key).branch().name());
      }
    }
    return branch;
  }

  private static BranchTable branchTable(Key key) {
    if (!(key instanceof BranchTable table)) {
      throw new IllegalArgumentException("a repo keeps its branches' pointers, not " + key);
    }
    return table;
  }

  private SnapshotTables tablesOf(BucketConfig bucket, StoragePath prefix,
      IcechunkRepository repository, ObjectId12 snapshot) {
    String key = bucket.id() + "/" + prefix.value() + "@" + snapshot;
    synchronized (declared) {
      SnapshotTables cached = declared.get(key);
      if (cached != null) {
        return cached;
      }
    }
    SnapshotTables tables = IcechestTables.read(repository, snapshot);
    synchronized (declared) {
      declared.put(key, tables);
    }
    return tables;
  }

  private static Version toVersion(String ref, Ref.Kind kind, SnapshotTables tables) {
    SortedMap<String, RepoTable> out = new TreeMap<>();
    tables.tables().forEach((name, t) ->
        out.put(name, new RepoTable(name, t.group(), t.location(), t.metadataLocation())));
    return new Version(ref, RefKind.valueOf(kind.name()), tables.snapshot().toString(), out,
        tables.problems().stream().map(TablesProblem::toString).toList());
  }

  private IcechunkRepository open(BucketConfig bucket, StoragePath prefix) {
    return IcechunkRepository.open(BucketObjectStore.of(storage.open(bucket)), prefix);
  }
}
