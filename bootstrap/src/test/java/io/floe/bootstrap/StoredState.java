package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jooq.Record;

/**
 * Everything the server keeps: a digest of every row of every table of the catalog database, and
 * every file under a storage directory. Two equal snapshots mean that nothing changed. A token's
 * {@code last_used_at} is left out: every authenticated request moves it.
 */
record StoredState(Map<String, String> rowsByTable, List<String> files) {
  /** Takes snapshots of one database and one directory, with a query built once. */
  static final class Camera {
    private final Database database;
    private final String query;

    Camera(Database database) {
      this.database = database;
      List<String> parts = new ArrayList<>();
      for (Record table : database.dsl().fetch("select table_name from information_schema.tables"
          + " where table_schema = current_schema() and table_type = 'BASE TABLE'"
          + " and table_name <> 'flyway_schema_history' order by table_name")) {
        String name = table.get(0, String.class);
        parts.add("select '" + name + "', md5(coalesce(string_agg(r, E'\\n' order by r), ''))"
            + " from (select (to_jsonb(x) - 'last_used_at')::text as r from " + name + " x) rows");
      }
      this.query = String.join(" union all ", parts);
    }

    StoredState take(Path directory) {
      Map<String, String> rows = new LinkedHashMap<>();
      database.dsl().fetch(query).forEach(row -> rows.put(row.get(0, String.class),
          row.get(1, String.class)));
      return new StoredState(rows, files(directory));
    }
  }

  /** What differs from {@code other}: the tables whose rows changed and the files that did. */
  String differenceFrom(StoredState other) {
    List<String> changed = new ArrayList<>();
    rowsByTable.forEach((table, digest) -> {
      if (!digest.equals(other.rowsByTable.get(table))) {
        changed.add("rows of " + table);
      }
    });
    List<String> added = new ArrayList<>(files);
    added.removeAll(other.files);
    List<String> removed = new ArrayList<>(other.files);
    removed.removeAll(files);
    added.forEach(file -> changed.add("+" + file));
    removed.forEach(file -> changed.add("-" + file));
    return String.join(", ", changed);
  }

  /** Every file and directory under {@code directory}, with the sizes of the files. */
  static List<String> files(Path directory) {
    if (!Files.exists(directory)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      return paths.map(path -> directory.relativize(path) + (Files.isDirectory(path) ? "/"
          : " " + size(path))).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
