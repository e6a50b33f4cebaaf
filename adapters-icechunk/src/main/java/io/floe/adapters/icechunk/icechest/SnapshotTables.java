package io.floe.adapters.icechunk.icechest;

import io.floe.adapters.icechunk.engine.IcechunkNotFoundException;
import io.floe.adapters.icechunk.format.ObjectId12;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The Iceberg tables of one snapshot: those its groups declare (by name, each with the pointer
 * of this snapshot's commit metadata), the raw pointer map, and what is malformed. The arrays of
 * a malformed snapshot stay readable; only the tables concerned cannot be resolved.
 */
public record SnapshotTables(ObjectId12 snapshot, SortedMap<String, DeclaredTable> tables,
    Map<String, String> pointers, List<TablesProblem> problems) {

  public boolean isWellFormed() {
    return problems.isEmpty();
  }

  /**
   * The current metadata.json of a declared table. A declared table without a pointer is a
   * malformed store ({@link MalformedTablesException}); an undeclared one is not found.
   */
  public String metadataLocation(String table) {
    DeclaredTable declared = tables.get(table);
    if (declared == null) {
      throw new IcechunkNotFoundException("snapshot " + snapshot + " declares no table '" + table
          + "'" + (tables.isEmpty() ? "" : " (it declares " + tables.keySet() + ")"));
    }
    return declared.metadataLocation().orElseThrow(() -> new MalformedTablesException(snapshot,
        problems.stream().filter(p -> p.subject().equals(table)).toList()));
  }
}
