package io.floe.adapters.icechunk.port;

import java.util.List;
import java.util.Optional;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;

/**
 * One table intent of a {@link RepoTransaction}, kept as an intent rather than as the metadata it
 * produced, so that a transaction that lost the race to another writer can run it again with
 * iceberg-core on the winner's version of the table.
 */
public sealed interface TableChange {

  /** Makes the change on {@code table} (its main branch) with iceberg-core's own producers. */
  void applyTo(Table table);

  /** The rows a change removes, which a replay must not find among rows the winner added. */
  default Optional<Expression> rowFilter() {
    return Optional.empty();
  }

  /** Appends data files; replays onto any newer version. */
  record Append(List<DataFile> files) implements TableChange {
    public Append {
      files = List.copyOf(files);
    }

    @Override
    public void applyTo(Table table) {
      AppendFiles append = table.newFastAppend();
      files.forEach(append::appendFile);
      append.commit();
    }
  }

  /**
   * Removes the rows matching {@code predicate}, whole data files at a time (iceberg-core refuses a
   * file only some of whose rows match, by its column statistics).
   */
  record DeleteWhere(Expression predicate) implements TableChange {
    @Override
    public void applyTo(Table table) {
      table.newDelete().deleteFromRowFilter(predicate).commit();
    }

    @Override
    public Optional<Expression> rowFilter() {
      return Optional.of(predicate);
    }
  }

  /** Replaces the rows matching {@code predicate} with the rows of {@code files}. */
  record OverwriteWhere(Expression predicate, List<DataFile> files) implements TableChange {
    public OverwriteWhere {
      files = List.copyOf(files);
    }

    @Override
    public void applyTo(Table table) {
      OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(predicate);
      files.forEach(overwrite::addFile);
      overwrite.commit();
    }

    @Override
    public Optional<Expression> rowFilter() {
      return Optional.of(predicate);
    }
  }
}
