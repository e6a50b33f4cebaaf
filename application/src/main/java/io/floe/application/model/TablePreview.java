package io.floe.application.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The first rows of a table's current snapshot, as a person opening the table sees them: the
 * columns shown, each row's values as text, the snapshot's row and data file counts, and why
 * fewer rows (or none) are shown when that is so.
 */
public record TablePreview(List<String> columns, List<List<String>> rows, Optional<Long> totalRows,
    Optional<Long> dataFiles, int hiddenColumns, Optional<String> note) {
  public TablePreview {
    columns = List.copyOf(columns);
    rows = rows.stream().map(List::copyOf).toList();
    Objects.requireNonNull(totalRows, "totalRows");
    Objects.requireNonNull(dataFiles, "dataFiles");
    Objects.requireNonNull(note, "note");
  }
}
