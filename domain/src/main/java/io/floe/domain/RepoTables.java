package io.floe.domain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Iceberg tables a repo's snapshot declares by the Icechunk–Iceberg convention: each with the
 * group that declares it, the root of its files and the {@code metadata.json} the snapshot points
 * at (empty when the snapshot lacks the pointer), and what is malformed, in words.
 */
public record RepoTables(List<Table> tables, List<String> problems) {

  /** One declared table. */
  public record Table(String name, String group, String location,
      Optional<String> metadataLocation) {
    public Table {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(metadataLocation, "metadataLocation");
    }
  }

  public RepoTables {
    tables = List.copyOf(tables);
    problems = List.copyOf(problems);
  }
}
