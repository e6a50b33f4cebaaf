package io.floe.adapters.icechunk.icechest;

import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.format.ObjectId12;

/**
 * Another commit moved the pointer of a table this commit also moves (or declared the same
 * table): the staged metadata.json was built on a version that is no longer current, so the
 * caller has to rebuild its table change on {@link #theirMetadata()} and stage that instead.
 */
public class TableConflictException extends IcechunkException {
  private final String table;
  private final String ourBase;
  private final String theirMetadata;
  private final ObjectId12 theirSnapshot;

  public TableConflictException(String table, String ourBase, String theirMetadata,
      ObjectId12 theirSnapshot) {
    super("table '" + table + "' moved in snapshot " + theirSnapshot + " from "
        + (ourBase == null ? "nothing" : ourBase) + " to " + theirMetadata
        + "; rebuild the change on that version");
    this.table = table;
    this.ourBase = ourBase;
    this.theirMetadata = theirMetadata;
    this.theirSnapshot = theirSnapshot;
  }

  public String table() {
    return table;
  }

  /** The table's metadata.json this commit's change was built on; null for a new table. */
  public String ourBase() {
    return ourBase;
  }

  public String theirMetadata() {
    return theirMetadata;
  }

  public ObjectId12 theirSnapshot() {
    return theirSnapshot;
  }
}
