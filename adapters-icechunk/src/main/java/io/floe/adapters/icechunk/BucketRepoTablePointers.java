package io.floe.adapters.icechunk;

import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.icechest.DeclaredTable;
import io.floe.adapters.icechunk.icechest.IcechestTables;
import io.floe.adapters.icechunk.icechest.SnapshotTables;
import io.floe.adapters.icechunk.icechest.TableCommitSession;
import io.floe.adapters.icechunk.icechest.TableConflictException;
import io.floe.adapters.icechunk.icechest.TablesProblem;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.RepoTablePointers;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The application's repo-backed table pointers, kept by the icechest convention in each repo's
 * Icechunk history. A snapshot never changes, so what it declares is cached by snapshot id.
 */
public final class BucketRepoTablePointers implements RepoTablePointers {
  /** How often a commit rebases onto others' unrelated commits before the caller re-plans. */
  static final int REBASE_ATTEMPTS = 5;
  private static final int CACHED_SNAPSHOTS = 512;

  private final BucketStorageProvider storage;
  private final Map<String, SnapshotTables> declared = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, SnapshotTables> eldest) {
      return size() > CACHED_SNAPSHOTS;
    }
  };

  public BucketRepoTablePointers(BucketStorageProvider storage) {
    this.storage = storage;
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
  public Optional<String> commit(BucketConfig bucket, StoragePath prefix, Commit commit) {
    return ApplicationErrors.translated(() -> {
      TableCommitSession session = TableCommitSession.open(open(bucket, prefix), commit.branch());
      if (!stillAsPlanned(session.base(), commit)) {
        return Optional.empty();
      }
      for (Declaration d : commit.declarations()) {
        session.createTable(d.group(), d.table(), d.location(), d.metadataLocation());
      }
      for (Move move : commit.moves()) {
        session.moveTable(move.table(), move.metadataLocation());
      }
      for (int attempt = 1; ; attempt++) {
        try {
          return Optional.of(session.commit(commit.message(), Map.of()).toString());
        } catch (CommitConflictException e) {
          if (attempt == REBASE_ATTEMPTS) {
            return Optional.empty();
          }
          try {
            session.rebase();
          } catch (TableConflictException moved) {
            return Optional.empty();
          }
        }
      }
    });
  }

  /** Whether every table the commit touches is as the change found it. */
  private static boolean stillAsPlanned(SnapshotTables tip, Commit commit) {
    for (Move move : commit.moves()) {
      DeclaredTable table = tip.tables().get(move.table());
      if (table == null || !Objects.equals(table.metadataLocation().orElse(null),
          move.expectedMetadataLocation())) {
        return false;
      }
    }
    return commit.declarations().stream()
        .noneMatch(d -> tip.tables().containsKey(d.table()));
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
    return IcechunkRepository.open(storage.open(bucket), prefix);
  }
}
