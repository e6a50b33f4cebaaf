package io.floe.adapters.icechunk.icechest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a snapshot's Iceberg tables by the convention: walks its groups for declarations and
 * takes each declared table's pointer from that same snapshot's commit metadata, never from
 * another snapshot.
 */
public final class IcechestTables {
  private static final ObjectMapper JSON = new ObjectMapper();

  private IcechestTables() {}

  public static SnapshotTables read(IcechunkRepository repository, Ref ref) {
    return read(repository, repository.resolve(ref));
  }

  public static SnapshotTables read(IcechunkRepository repository, ObjectId12 snapshot) {
    ReadSession session = repository.readonlySession(Ref.snapshot(snapshot));
    Map<String, Object> commitMetadata = repository.commitInfo(snapshot).metadata();
    return resolve(snapshot, declarations(session), commitMetadata);
  }

  /** A declaring group's bindings, or its problems. */
  record Declaration(String group, Map<String, String> locations, List<String> problems) {}

  /** Every group that lists the convention, in path order. */
  static List<Declaration> declarations(ReadSession session) {
    List<Declaration> out = new ArrayList<>();
    for (NodeSnapshot node : session.nodes()) {
      if (node.isArray()) {
        continue;
      }
      Map<String, Object> attributes;
      try {
        attributes = session.attributes(node.path());
      } catch (IcechunkException e) {
        continue; // not a readable Zarr group document; not a declaration either
      }
      if (!IcebergConvention.isDeclaredBy(attributes)) {
        continue;
      }
      List<String> problems = ConventionSchema.checkGroup(parse(node.userData()));
      Map<String, String> locations = new LinkedHashMap<>();
      if (attributes.get(IcebergConvention.TABLES_ATTRIBUTE) instanceof Map<?, ?> tables) {
        tables.forEach((name, binding) -> {
          if (binding instanceof Map<?, ?> b && b.get("location") instanceof String location
              && !location.isEmpty()) {
            locations.put(String.valueOf(name), location);
          }
        });
      }
      out.add(new Declaration(node.path(), locations, problems));
    }
    return out;
  }

  static SnapshotTables resolve(ObjectId12 snapshot, List<Declaration> declarations,
      Map<String, Object> commitMetadata) {
    List<TablesProblem> problems = new ArrayList<>();
    Map<String, String> pointers = pointers(commitMetadata, problems);
    SortedMap<String, DeclaredTable> tables = new TreeMap<>();
    for (Declaration d : declarations) {
      for (String message : d.problems()) {
        problems.add(new TablesProblem(TablesProblem.Kind.INVALID_DECLARATION, d.group(), message));
      }
      d.locations().forEach((name, location) -> {
        DeclaredTable earlier = tables.get(name);
        if (earlier != null) {
          problems.add(new TablesProblem(TablesProblem.Kind.DUPLICATE_TABLE, name,
              "declared by " + earlier.group() + " and by " + d.group()));
          return;
        }
        Optional<String> pointer = Optional.ofNullable(pointers.get(name));
        if (pointer.isEmpty()) {
          problems.add(new TablesProblem(TablesProblem.Kind.MISSING_POINTER, name,
              "declared by " + d.group() + " but " + IcebergConvention.TABLE_VERSIONS_KEY
                  + " of snapshot " + snapshot + " has no entry for it"));
        }
        tables.put(name, new DeclaredTable(name, d.group(), location, pointer));
      });
    }
    return new SnapshotTables(snapshot, tables, pointers, problems);
  }

  /** The string entries of iceberg:table_versions; anything else about it is a problem. */
  private static Map<String, String> pointers(Map<String, Object> commitMetadata,
      List<TablesProblem> problems) {
    Map<String, String> out = new TreeMap<>();
    Object raw = commitMetadata.get(IcebergConvention.TABLE_VERSIONS_KEY);
    if (raw == null) {
      return out;
    }
    for (String message : ConventionSchema.checkCommitMetadata(JSON.valueToTree(commitMetadata))) {
      problems.add(new TablesProblem(TablesProblem.Kind.INVALID_POINTERS,
          IcebergConvention.TABLE_VERSIONS_KEY, message));
    }
    if (raw instanceof Map<?, ?> map) {
      map.forEach((table, uri) -> {
        if (uri instanceof String s && !s.isEmpty()) {
          out.put(String.valueOf(table), s);
        }
      });
    }
    return out;
  }

  private static JsonNode parse(byte[] zarrJson) {
    try {
      return JSON.readTree(zarrJson);
    } catch (IOException e) {
      return JSON.nullNode();
    }
  }
}
