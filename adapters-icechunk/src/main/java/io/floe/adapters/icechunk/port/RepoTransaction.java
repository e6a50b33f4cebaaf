package io.floe.adapters.icechunk.port;

import io.floe.adapters.icechunk.engine.CommitConflictException;
import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.icechest.IcebergConvention;
import io.floe.adapters.icechunk.icechest.SnapshotTables;
import io.floe.adapters.icechunk.icechest.TableCommitSession;
import io.floe.adapters.icechunk.zarr.IcechunkZarrStore;
import io.floe.application.iceberg.replay.ReplayConflictException;
import io.floe.application.iceberg.replay.RowFilterConflicts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.FileIO;

/**
 * Arrays and tables of one Icechunk branch changed together and published as ONE Icechunk commit.
 * Array and group writes go through {@link #arrays()} or the zarr-java {@link #zarrStore()};
 * table intents (create, append data files, delete by predicate, overwrite) are recorded and
 * turned into new table versions with iceberg-core at {@link #commit}. Nothing is visible before
 * the commit and nothing is published when it fails: metadata files written on the way are
 * unreferenced, for garbage collection.
 *
 * <p>When another writer moved the branch meanwhile, the arrays rebase as Icechunk does and each
 * table the winner also changed is rebuilt on the winner's version by running the intents again:
 * appends always; deletes and overwrites only when the winner added no rows their predicate may
 * match (else {@link ReplayConflictException} naming the table, the predicate and both snapshots).
 * Single use, not thread-safe.
 */
public final class RepoTransaction {
  /** How many times a commit is tried when other writers keep moving the branch. */
  public static final int DEFAULT_ATTEMPTS = 5;

  private final TableCommitSession session;
  private final TableVersionWriter versions;
  private final Map<String, NewTable> created = new LinkedHashMap<>();
  private final Map<String, List<TableChange>> changes = new LinkedHashMap<>();
  /** The table's main snapshot each change was first built on (null: it had none). */
  private final Map<String, Long> firstBase = new HashMap<>();
  private boolean finished;

  private RepoTransaction(TableCommitSession session, FileIO io) {
    this.session = session;
    this.versions = new TableVersionWriter(io);
  }

  /**
   * Starts a transaction on {@code branch}; {@code io} reads and writes the tables' files
   * (metadata, manifests) and is trusted with every table of the repository.
   */
  public static RepoTransaction begin(IcechunkRepository repository, String branch, FileIO io) {
    return new RepoTransaction(TableCommitSession.open(repository, branch), io);
  }

  /** The Icechunk session for array and group writes. */
  public WritableSession arrays() {
    return session.arrays();
  }

  /** The same session as a zarr-java store. */
  public IcechunkZarrStore zarrStore() {
    return new IcechunkZarrStore(session.arrays());
  }

  /** The tables of the snapshot the transaction builds on. */
  public SnapshotTables tables() {
    return session.base();
  }

  /**
   * Creates a table declared on {@code group} (created if absent), with the convention's
   * {@link IcebergConvention#TABLE_PROPERTIES}; later intents on it go into its first version.
   */
  public void createTable(String group, String table, Schema schema, PartitionSpec spec,
      String location) {
    requireOpen();
    if (created.containsKey(table) || session.base().tables().containsKey(table)) {
      throw new IcechunkException("table '" + table + "' already exists in branch '"
          + session.arrays().branch() + "'");
    }
    created.put(table, new NewTable(group, schema, spec, location));
    changes.put(table, new ArrayList<>());
  }

  public void appendFiles(String table, List<DataFile> files) {
    add(table, new TableChange.Append(files));
  }

  public void deleteWhere(String table, Expression predicate) {
    add(table, new TableChange.DeleteWhere(predicate));
  }

  public void overwriteWhere(String table, Expression predicate, List<DataFile> files) {
    add(table, new TableChange.OverwriteWhere(predicate, files));
  }

  /** Stages any intent, e.g. one of {@link TableChange}'s. */
  public void add(String table, TableChange change) {
    requireOpen();
    if (!created.containsKey(table) && !session.base().tables().containsKey(table)) {
      throw new IcechunkException("table '" + table + "' is not declared in branch '"
          + session.arrays().branch() + "'");
    }
    changes.computeIfAbsent(table, t -> new ArrayList<>()).add(change);
  }

  /** Commits with {@link #DEFAULT_ATTEMPTS}. */
  public ObjectId12 commit(String message, Map<String, ?> metadata) {
    return commit(message, metadata, DEFAULT_ATTEMPTS);
  }

  /**
   * Builds every table's new version, then publishes them and the array changes as one Icechunk
   * commit, replaying onto a moved branch up to {@code maxAttempts} times.
   */
  public ObjectId12 commit(String message, Map<String, ?> metadata, int maxAttempts) {
    requireOpen();
    finished = true;
    stageTables();
    CommitConflictException last = null;
    for (int attempt = 0; attempt < maxAttempts; attempt++) {
      try {
        return session.commit(message, metadata);
      } catch (CommitConflictException e) {
        last = e;
        session.rebase((table, theirMetadata, theirSnapshot) -> rebuild(table, theirMetadata));
      }
    }
    throw last;
  }

  private void stageTables() {
    for (Map.Entry<String, List<TableChange>> e : changes.entrySet()) {
      String table = e.getKey();
      NewTable fresh = created.get(table);
      if (fresh != null) {
        Map<String, String> properties = new HashMap<>(IcebergConvention.TABLE_PROPERTIES);
        TableMetadata first = TableMetadata.newTableMetadata(fresh.schema(), fresh.spec(),
            SortOrder.unsorted(), fresh.location(), properties);
        session.createTable(fresh.group(), table, fresh.location(),
            versions.write(table, first, Optional.empty(), e.getValue()));
      } else if (!e.getValue().isEmpty()) {
        String pointer = session.base().metadataLocation(table);
        TableMetadata base = versions.read(pointer);
        firstBase.put(table, mainSnapshot(base));
        session.moveTable(table, versions.write(table, base, Optional.of(pointer), e.getValue()));
      }
    }
  }

  /** The intents of {@code table} run again on the version the winner committed. */
  private String rebuild(String table, String theirMetadata) {
    TableMetadata theirs = versions.read(theirMetadata);
    for (TableChange change : changes.get(table)) {
      change.rowFilter().ifPresent(predicate -> RowFilterConflicts.requireNoMatchingRowsAdded(
          table, theirs, SnapshotRef.MAIN_BRANCH, firstBase.get(table), predicate,
          versions.io()));
    }
    return versions.write(table, theirs, Optional.of(theirMetadata), changes.get(table));
  }

  private static Long mainSnapshot(TableMetadata metadata) {
    SnapshotRef main = metadata.ref(SnapshotRef.MAIN_BRANCH);
    return main == null ? null : main.snapshotId();
  }

  private void requireOpen() {
    if (finished) {
      throw new IllegalStateException("this transaction was committed or failed; begin another");
    }
  }

  private record NewTable(String group, Schema schema, PartitionSpec spec, String location) {}
}
