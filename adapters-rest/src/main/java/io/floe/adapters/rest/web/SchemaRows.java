package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.SchemaRow;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A schema as rows for the schema browser: every field, depth first, with structs' fields, list
 * elements and map keys and values under their parent.
 */
final class SchemaRows {
  private SchemaRows() {}

  static List<SchemaRow> of(Schema schema) {
    List<SchemaRow> rows = new ArrayList<>();
    schema.columns().forEach(field -> add(rows, field, 0));
    return rows;
  }

  private static void add(List<SchemaRow> rows, Types.NestedField field, int depth) {
    rows.add(new SchemaRow(depth, field.name(), describe(field.type()), field.isRequired(),
        field.fieldId(), field.doc() == null ? "" : field.doc()));
    Type type = field.type();
    if (type.isNestedType()) {
      type.asNestedType().fields().forEach(child -> add(rows, child, depth + 1));
    }
  }

  /** Primitive types as Iceberg writes them; nested ones by kind, their parts shown below. */
  private static String describe(Type type) {
    if (type.isStructType()) {
      return "struct";
    } else if (type.isListType()) {
      return "list<" + describe(type.asListType().elementType()) + ">";
    } else if (type.isMapType()) {
      return "map<" + describe(type.asMapType().keyType()) + ", "
          + describe(type.asMapType().valueType()) + ">";
    }
    return type.toString();
  }
}
