package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class MetadataLimitsTest {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final MetadataLimits LIMITS = new MetadataLimits(8, 100, 10_000);

  @Test
  void listsNestedAroundATreeOfMapsAreRefusedBeforeIcebergBuildsTheSchema() {
    // The shape that ran a server out of memory: 850 lists around a depth-14 tree of maps.
    JsonNode body = createTable(listsAroundMaps(850, 14));
    assertThatThrownBy(() -> MetadataLimits.DEFAULTS.checkDocument(body, "the request body"))
        .isInstanceOf(MetadataLimitException.class)
        .hasMessage("The request body nests schema fields more than 32 levels deep, the most "
            + "this server accepts");
  }

  @Test
  void depthCountsEveryNestedTypeFromTheTopLevelColumns() {
    assertThatCode(() -> LIMITS.checkDocument(createTable(listsAroundMaps(7, 0)), "body"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> LIMITS.checkDocument(createTable(listsAroundMaps(8, 0)), "body"))
        .hasMessageContaining("more than 8 levels deep");
    // A map's key and value are one level below it, like a struct's fields.
    MetadataLimits roomy = LIMITS.withMaxSchemaFields(1_000);
    assertThatCode(() -> roomy.checkDocument(createTable(listsAroundMaps(0, 7)), "body"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> roomy.checkDocument(createTable(listsAroundMaps(0, 8)), "body"))
        .hasMessageContaining("more than 8 levels deep");
  }

  @Test
  void theFieldsOfOneSchemaAreCountedNestedOnesIncluded() {
    MetadataLimits limits = LIMITS.withMaxSchemaFields(10);
    // One column holding a list of maps: the column, the element, the key and the value.
    assertThatCode(() -> limits.checkDocument(createTable(columns(6, "int")), "body"))
        .doesNotThrowAnyException();
    JsonNode nested = createTable(columns(2, listsAroundMaps(1, 1).toString()));
    assertThatCode(() -> limits.checkDocument(nested, "body")).doesNotThrowAnyException();
    assertThatThrownBy(() -> limits.checkDocument(createTable(columns(11, "int")), "body"))
        .hasMessageContaining("a schema of more than 10 fields");
    // Two schemas of a metadata file are each within the limit.
    ObjectNode file = JSON.objectNode();
    file.putArray("schemas").add(schema(columns(10, "int"))).add(schema(columns(10, "int")));
    assertThatCode(() -> limits.checkDocument(file, "file")).doesNotThrowAnyException();
  }

  @Test
  void fullNamesOfAllSchemasOfADocumentAddUp() {
    // One long column name repeated in the full name of each of its struct's fields.
    ObjectNode struct = JSON.objectNode().put("type", "struct");
    ArrayNode fields = struct.putArray("fields");
    for (int i = 0; i < 50; i++) {
      fields.add(field(i + 2, "f" + i, JSON.textNode("int")));
    }
    ArrayNode top = JSON.arrayNode().add(field(1, "n".repeat(300), struct));
    // 300 + 50 * (300 + 1 + 3 or 4) = 15,540 characters of names in 2 KB of JSON
    assertThatThrownBy(() -> LIMITS.checkDocument(createTable(top), "the request body"))
        .isInstanceOf(MetadataLimitException.class)
        .hasMessageContaining("add up to more than 10000 characters");
    assertThatCode(() -> LIMITS.withMaxMetadataBytes(16_000).checkDocument(createTable(top),
        "the request body")).doesNotThrowAnyException();
  }

  @Test
  void schemasAboutToBeWrittenAreCountedAsTheirJsonIs() {
    JsonNode wide = createTable(columns(101, "int"));
    Schema parsed = SchemaParser.fromJson(wide.get("schema"));
    assertThatThrownBy(() -> LIMITS.checkDocument(wide, "body"))
        .hasMessageContaining("more than 100 fields");
    assertThatThrownBy(() -> LIMITS.checkSchemas(List.of(parsed), "the table's new metadata"))
        .hasMessage("The table's new metadata has a schema of more than 100 fields (nested "
            + "fields, list elements and map keys and values included), the most this server "
            + "accepts");
    Schema deep = SchemaParser.fromJson(createTable(listsAroundMaps(4, 4)).get("schema"));
    assertThatThrownBy(() -> LIMITS.checkSchemas(List.of(deep), "metadata"))
        .hasMessageContaining("more than 8 levels deep");
    Schema fine = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    assertThatCode(() -> LIMITS.checkSchemas(List.of(fine, fine), "metadata"))
        .doesNotThrowAnyException();
  }

  @Test
  void theDefaultSizeIsASixteenthOfTheHeapAndNeverBelowEightMib() {
    long mib = 1024 * 1024;
    assertThat(MetadataLimits.forHeap(256 * mib).maxMetadataBytes()).isEqualTo(16 * mib);
    assertThat(MetadataLimits.forHeap(2048 * mib).maxMetadataBytes()).isEqualTo(128 * mib);
    assertThat(MetadataLimits.forHeap(64 * mib).maxMetadataBytes()).isEqualTo(8 * mib);
    assertThat(MetadataLimits.DEFAULTS).isEqualTo(new MetadataLimits(32, 20_000, 16 * mib));
    assertThatThrownBy(() -> new MetadataLimits(0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** {@code lists} list types around a full binary tree of maps {@code mapDepth} deep. */
  static JsonNode listsAroundMaps(int lists, int mapDepth) {
    AtomicInteger ids = new AtomicInteger(1);
    JsonNode type = maps(mapDepth, ids);
    for (int i = 0; i < lists; i++) {
      type = JSON.objectNode().put("type", "list").put("element-id", ids.incrementAndGet())
          .put("element-required", false).set("element", type);
    }
    return JSON.arrayNode().add(field(1, "a", type));
  }

  private static JsonNode maps(int depth, AtomicInteger ids) {
    if (depth == 0) {
      return JSON.textNode("int");
    }
    ObjectNode map = JSON.objectNode().put("type", "map");
    map.put("key-id", ids.incrementAndGet()).set("key", maps(depth - 1, ids));
    map.put("value-id", ids.incrementAndGet()).set("value", maps(depth - 1, ids));
    return map.put("value-required", false);
  }

  private static JsonNode columns(int count, String typeJson) {
    List<JsonNode> columns = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      JsonNode type = typeJson.startsWith("[")
          ? read(typeJson).get(0).get("type") : JSON.textNode(typeJson);
      columns.add(field(i + 1, "c" + i, type));
    }
    return JSON.arrayNode().addAll(columns);
  }

  private static JsonNode read(String json) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static ObjectNode field(int id, String name, JsonNode type) {
    ObjectNode field = JSON.objectNode().put("id", id).put("name", name).put("required", false);
    return field.set("type", type);
  }

  private static ObjectNode schema(JsonNode fields) {
    ObjectNode schema = JSON.objectNode().put("type", "struct").put("schema-id", 0);
    return schema.set("fields", fields);
  }

  private static JsonNode createTable(JsonNode fields) {
    ObjectNode body = JSON.objectNode().put("name", "t");
    return body.set("schema", schema(fields));
  }
}
