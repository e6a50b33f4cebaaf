package io.floe.bootstrap;

/**
 * Schemas that cost a server far more than their size, as JSON spelled the way Python's json
 * module writes it ({@code ", "} and {@code ": "}), which is what the sizes below are measured in.
 */
final class HostileSchemas {
  private HostileSchemas() {}

  /**
   * A schema of one column: {@code lists} list types nested around a full binary tree of map
   * types {@code mapDepth} deep (each map's key and value are maps, down to {@code int}s). Every
   * field of the tree has a full name hundreds of {@code element}s long: 850 lists around a tree
   * 14 deep is a 1.7 MB body whose index of names iceberg-core would build in gigabytes.
   */
  static String listsAroundMaps(int lists, int mapDepth) {
    StringBuilder json = new StringBuilder(2_000_000);
    int[] ids = {1};
    json.append("{\"type\": \"struct\", \"schema-id\": 0, \"fields\": [{\"id\": 1, \"name\": "
        + "\"a\", \"required\": false, \"type\": ");
    for (int i = 0; i < lists; i++) {
      json.append("{\"type\": \"list\", \"element-id\": ").append(++ids[0])
          .append(", \"element\": ");
    }
    maps(json, mapDepth, ids);
    json.append(", \"element-required\": false}".repeat(lists));
    return json.append("}]}").toString();
  }

  private static void maps(StringBuilder json, int depth, int[] ids) {
    if (depth == 0) {
      json.append("\"int\"");
      return;
    }
    json.append("{\"type\": \"map\", \"key-id\": ").append(++ids[0]).append(", \"key\": ");
    maps(json, depth - 1, ids);
    json.append(", \"value-id\": ").append(++ids[0]).append(", \"value\": ");
    maps(json, depth - 1, ids);
    json.append(", \"value-required\": false}");
  }

  /** A createTable body for {@code name} with {@code schema}. */
  static String createTable(String name, String schema) {
    return "{\"name\": \"" + name + "\", \"schema\": " + schema + "}";
  }
}
