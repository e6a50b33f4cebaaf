package io.floe.adapters.icechunk.icechest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Icechunk–Iceberg convention, version 1 (icechest's): a Zarr group declares the Iceberg
 * tables describing its arrays in its attributes, and every snapshot's commit metadata names each
 * declared table's current {@code metadata.json}. The JSON schemas are the resources
 * {@code conventions/icechunk-iceberg/schema.json} (the group document) and
 * {@code conventions/icechunk-iceberg/commit-metadata.schema.json}.
 *
 * <p>The split is what lets writers append concurrently: the declaration is written once, when a
 * table is created, so appends never rewrite the group (which Icechunk would report as a double
 * update of its zarr.json); the pointer travels in per-commit metadata instead.
 */
public final class IcebergConvention {
  public static final String UUID = "66da9667-d40f-46cb-93a5-7c915af5f7dc";
  public static final String NAME = "iceberg:";
  public static final String VERSION = "1";
  public static final String SCHEMA_URL =
      "https://floe.io/conventions/icechunk-iceberg/v1/schema.json";
  public static final String SPEC_URL = "https://floe.io/conventions/icechunk-iceberg/v1/";
  public static final String DESCRIPTION = "Binds a Zarr group to Apache Iceberg tables describing"
      + " its arrays; each table's current metadata.json is in the Icechunk commit metadata.";

  /** Group attribute listing the conventions a node follows. */
  public static final String CONVENTIONS_ATTRIBUTE = "zarr_conventions";
  public static final String VERSION_ATTRIBUTE = "iceberg:version";
  public static final String TABLES_ATTRIBUTE = "iceberg:tables";
  /** Commit metadata key: {@code {"<table>": "<metadata.json URI>"}}. */
  public static final String TABLE_VERSIONS_KEY = "iceberg:table_versions";

  /** Table properties the convention asks for: Iceberg's cleanup would delete what tags pin. */
  public static final Map<String, String> TABLE_PROPERTIES = Map.of(
      "gc.enabled", "false",
      "write.metadata.delete-after-commit.enabled", "false");

  private IcebergConvention() {}

  /** The convention's entry in {@code zarr_conventions}. */
  public static Map<String, Object> metadataObject() {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("uuid", UUID);
    entry.put("name", NAME);
    entry.put("schema_url", SCHEMA_URL);
    entry.put("spec_url", SPEC_URL);
    entry.put("description", DESCRIPTION);
    return entry;
  }

  /** Whether a group's attributes list the convention (by its UUID) in zarr_conventions. */
  public static boolean isDeclaredBy(Map<String, Object> attributes) {
    if (!(attributes.get(CONVENTIONS_ATTRIBUTE) instanceof List<?> listed)) {
      return false;
    }
    return listed.stream().anyMatch(c -> c instanceof Map<?, ?> m && UUID.equals(m.get("uuid")));
  }

  /**
   * The attributes with the convention declared and {@code table} bound to {@code location};
   * other attributes and other bindings unchanged. A table already bound elsewhere cannot move:
   * the binding never changes once written.
   */
  public static Map<String, Object> declare(Map<String, Object> attributes, String table,
      String location) {
    if (table == null || table.isEmpty()) {
      throw new IllegalArgumentException("a table name must not be empty");
    }
    if (location == null || location.isEmpty()) {
      throw new IllegalArgumentException("table '" + table + "' needs a location");
    }
    Map<String, Object> out = new LinkedHashMap<>(attributes);
    List<Object> listed = new ArrayList<>();
    if (attributes.get(CONVENTIONS_ATTRIBUTE) instanceof List<?> existing) {
      listed.addAll(existing);
    }
    if (!isDeclaredBy(attributes)) {
      listed.add(metadataObject());
    }
    Map<String, Object> tables = new LinkedHashMap<>();
    if (attributes.get(TABLES_ATTRIBUTE) instanceof Map<?, ?> existing) {
      existing.forEach((k, v) -> tables.put(String.valueOf(k), v));
    }
    if (tables.get(table) instanceof Map<?, ?> binding && !location.equals(binding.get("location"))) {
      throw new IllegalArgumentException("table '" + table + "' is already bound to "
          + binding.get("location") + "; a table's location never changes");
    }
    tables.put(table, Map.of("location", location));
    out.put(CONVENTIONS_ATTRIBUTE, listed);
    out.put(VERSION_ATTRIBUTE, VERSION);
    out.put(TABLES_ATTRIBUTE, tables);
    return out;
  }
}
