package io.floe.adapters.icechunk.icechest;

import io.floe.adapters.icechunk.engine.CommitConflictException;
import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.RebasingCommits;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ObjectId12;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One commit on a branch that may change arrays and tables together, by the convention: table
 * declarations go into group attributes, and the commit metadata carries the pointer of every
 * table the new snapshot declares — the moved ones and, unchanged, all the others. Array and group
 * writes go through {@link #arrays()}. Not thread-safe.
 */
public final class TableCommitSession {
  private final IcechunkRepository repository;
  private final WritableSession session;
  private SnapshotTables base;
  /** Tables declared in this session: name to location. */
  private final Map<String, String> created = new LinkedHashMap<>();
  /** New pointers staged in this session: name to metadata.json. */
  private final Map<String, String> staged = new TreeMap<>();

  private TableCommitSession(IcechunkRepository repository, WritableSession session) {
    this.repository = repository;
    this.session = session;
    this.base = IcechestTables.read(repository, session.snapshotId());
  }

  public static TableCommitSession open(IcechunkRepository repository, String branch) {
    return new TableCommitSession(repository, repository.writableSession(branch));
  }

  /** The session for array and group changes committed with the tables. */
  public WritableSession arrays() {
    return session;
  }

  /** The tables of the snapshot this session builds on. */
  public SnapshotTables base() {
    return base;
  }

  /**
   * Declares a new table on a group (created if absent) and stages its first metadata.json:
   * declaration and first pointer land in the same commit, as the convention requires.
   */
  public void createTable(String group, String table, String location, String metadataLocation) {
    requireUri(table, metadataLocation);
    if (base.tables().containsKey(table) || created.containsKey(table)) {
      throw new IcechunkException("table '" + table + "' already exists in branch '"
          + session.branch() + "'");
    }
    Map<String, Object> attributes = session.node(group).isPresent()
        ? session.attributes(group) : Map.of();
    Map<String, Object> declared = IcebergConvention.declare(attributes, table, location);
    if (session.node(group).isPresent()) {
      session.setAttributes(group, declared);
    } else {
      session.createGroup(group, declared);
    }
    created.put(table, location);
    staged.put(table, metadataLocation);
  }

  /** Stages a declared table's new metadata.json (a table commit). */
  public void moveTable(String table, String metadataLocation) {
    requireUri(table, metadataLocation);
    if (!base.tables().containsKey(table) && !created.containsKey(table)) {
      throw new IcechunkException("table '" + table + "' is not declared in branch '"
          + session.branch() + "'");
    }
    staged.put(table, metadataLocation);
  }

  /** Every declared table's pointer as the commit will record it. */
  public Map<String, String> pointers() {
    Map<String, String> out = new TreeMap<>();
    for (DeclaredTable t : base.tables().values()) {
      t.metadataLocation().ifPresent(uri -> out.put(t.name(), uri));
    }
    out.putAll(staged);
    for (String table : base.tables().keySet()) {
      if (!out.containsKey(table)) {
        // Carrying a missing pointer forward is impossible and guessing one is forbidden.
        throw new MalformedTablesException(base.snapshot(), base.problems().stream()
            .filter(p -> p.subject().equals(table)).toList());
      }
    }
    return out;
  }

  /**
   * Commits arrays and table pointers as one Icechunk commit; a commit that only moves tables is
   * allowed. {@code metadata} is extra commit metadata (it cannot hold the pointer key).
   * Throws {@link CommitConflictException} when the branch moved; {@link #rebase()} then.
   */
  public ObjectId12 commit(String message, Map<String, ?> metadata) {
    Map<String, Object> all = new LinkedHashMap<>(metadata == null ? Map.of() : metadata);
    if (all.containsKey(IcebergConvention.TABLE_VERSIONS_KEY)) {
      throw new IllegalArgumentException(IcebergConvention.TABLE_VERSIONS_KEY
          + " is written by the session; stage pointers with createTable or moveTable");
    }
    Map<String, String> pointers = pointers();
    if (!pointers.isEmpty()) {
      all.put(IcebergConvention.TABLE_VERSIONS_KEY, pointers);
    }
    ObjectId12 id = session.commit(message, all, !staged.isEmpty());
    created.clear();
    staged.clear();
    base = IcechestTables.read(repository, id);
    return id;
  }

  /**
   * Moves onto the branch's new tip: arrays rebase as Icechunk does; tables carried forward come
   * from the tip. A table staged here that the tip moved too (or a table created on both sides)
   * is a {@link TableConflictException}: the staged version was built on an outdated one.
   */
  public void rebase() {
    rebase((table, theirs, snapshot) -> {
      throw new TableConflictException(table, basePointer(table), theirs, snapshot);
    });
  }

  /**
   * As {@link #rebase()}, but a table this session moves that the tip moved too is handed to
   * {@code rebuild}, which builds the change again on the tip's version and returns the new
   * metadata.json to stage (or throws to refuse). A table created on both sides stays a
   * {@link TableConflictException}: there is no common version to rebuild on.
   */
  public void rebase(TableRebuilder rebuild) {
    session.rebase();
    SnapshotTables tip = IcechestTables.read(repository, session.snapshotId());
    Map<String, String> rebuilt = new TreeMap<>();
    for (Map.Entry<String, String> e : staged.entrySet()) {
      String table = e.getKey();
      String ours = basePointer(table);
      DeclaredTable theirs = tip.tables().get(table);
      String theirMetadata = theirs == null ? null : theirs.metadataLocation().orElse(null);
      if (theirs == null || Objects.equals(ours, theirMetadata)) {
        continue;
      }
      if (ours == null || theirMetadata == null) {
        throw new TableConflictException(table, ours, theirMetadata, tip.snapshot());
      }
      rebuilt.put(table, rebuild.rebuild(table, theirMetadata, tip.snapshot()));
    }
    rebuilt.forEach((table, metadataLocation) -> requireUri(table, metadataLocation));
    staged.putAll(rebuilt);
    base = tip;
  }

  /** Builds a staged table change again on the version another commit moved the table to. */
  @FunctionalInterface
  public interface TableRebuilder {
    /** The new metadata.json built on {@code theirMetadata}, committed in {@code theirSnapshot}. */
    String rebuild(String table, String theirMetadata, ObjectId12 theirSnapshot);
  }

  private String basePointer(String table) {
    DeclaredTable declared = base.tables().get(table);
    return declared == null ? null : declared.metadataLocation().orElse(null);
  }

  /** Commits, rebasing and retrying on a moved branch, at most {@code maxAttempts} times. */
  public ObjectId12 commitRebasing(String message, Map<String, ?> metadata, int maxAttempts) {
    return RebasingCommits.commit(maxAttempts, () -> commit(message, metadata), this::rebase);
  }

  private static void requireUri(String table, String metadataLocation) {
    if (metadataLocation == null || metadataLocation.isEmpty()) {
      throw new IllegalArgumentException("table '" + table + "' needs a metadata.json location");
    }
  }
}
