package io.floe.domain;

import java.util.List;
import java.util.Objects;

/**
 * Table work recorded as what it means rather than as the metadata file it produced, so that it can
 * be replayed onto whichever table version wins a race. Only appends replay automatically; anything
 * that depends on what another writer changed must be planned again.
 */
public sealed interface TableIntent {
  String tableName();

  /** Whether the intent can be re-applied onto a newer table version without re-planning. */
  boolean replayable();

  /** Add data files to the table. */
  record Append(String tableName, List<String> dataFiles) implements TableIntent {
    public Append {
      Objects.requireNonNull(tableName, "tableName");
      dataFiles = List.copyOf(dataFiles);
    }

    @Override
    public boolean replayable() {
      return true;
    }
  }

  /** Anything else: delete, overwrite, schema change. Fails on conflict and must be re-planned. */
  record Rewrite(String tableName, String description) implements TableIntent {
    public Rewrite {
      Objects.requireNonNull(tableName, "tableName");
    }

    @Override
    public boolean replayable() {
      return false;
    }
  }
}
