package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.Paging;
import io.floe.adapters.rest.web.view.SchemaPanel;
import io.floe.adapters.rest.web.view.SchemaRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A schema as rows for the schema browser, in bounded size whatever the schema: fields depth
 * first, with structs' fields, list elements and map keys and values under their parent, at most
 * {@link #ROWS_PER_PAGE} rows a page and {@link #LEVELS_SHOWN} levels below what is shown (the
 * whole schema, or one field opened from a collapsed row). A field whose own fields lie deeper is
 * one row that says how many it holds and opens them. Types name only one level of what they
 * hold ({@code list<struct>}, its parts are rows of their own), and names and docs are cut to a
 * length a row can show.
 */
final class SchemaRows {
  static final int ROWS_PER_PAGE = 200;
  static final int LEVELS_SHOWN = 4;
  static final int MAX_NAME = 200;
  static final int MAX_DOC = 500;

  private SchemaRows() {}

  /**
   * Page {@code page} (from 1) of the fields of {@code schema}, or of the field {@code opened}
   * when it names one of it; {@code links} say where the other pages are.
   */
  static SchemaPanel of(Schema schema, Optional<Integer> opened, int page, Links links) {
    Optional<Types.NestedField> root = opened.map(schema::findField);
    List<Types.NestedField> top = root.map(field -> field.type().isNestedType()
        ? field.type().asNestedType().fields() : List.<Types.NestedField>of())
        .orElse(schema.columns());
    List<SchemaRow> rows = new ArrayList<>();
    top.forEach(field -> add(rows, field, 0, links));
    int pages = Math.max(1, (rows.size() + ROWS_PER_PAGE - 1) / ROWS_PER_PAGE);
    int shown = Math.min(Math.max(page, 1), pages);
    int rootId = root.map(Types.NestedField::fieldId).orElse(-1);
    Paging paging = new Paging(shown, pages, rows.size(),
        shown > 1 ? links.page(rootId, shown - 1) : null,
        shown < pages ? links.page(rootId, shown + 1) : null);
    int first = (shown - 1) * ROWS_PER_PAGE;
    List<SchemaRow> pageRows = rows.subList(first, Math.min(rows.size(), first + ROWS_PER_PAGE));
    String openedName = root.map(field -> cut(schema.findColumnName(field.fieldId()), MAX_NAME))
        .orElse("");
    return new SchemaPanel(List.copyOf(pageRows), first + 1, first + pageRows.size(), paging,
        openedName, root.isPresent() ? links.page(-1, 1) : null,
        opened.isPresent() && root.isEmpty());
  }

  /** Where the pages of the browser are. */
  interface Links {
    /** Page {@code page} of the field {@code fieldId}'s fields, or of the schema for -1. */
    String page(int fieldId, int page);
  }

  private static void add(List<SchemaRow> rows, Types.NestedField field, int depth, Links links) {
    Type type = field.type();
    boolean collapsed = type.isNestedType() && depth + 1 >= LEVELS_SHOWN;
    int hidden = collapsed ? count(type) : 0;
    rows.add(new SchemaRow(depth, cut(field.name(), MAX_NAME), describe(type),
        field.isRequired(), field.fieldId(), field.doc() == null ? "" : cut(field.doc(), MAX_DOC),
        hidden, collapsed ? links.page(field.fieldId(), 1) : null));
    if (type.isNestedType() && !collapsed) {
      type.asNestedType().fields().forEach(child -> add(rows, child, depth + 1, links));
    }
  }

  /** The fields a nested type holds at every level below it. */
  private static int count(Type type) {
    int fields = 0;
    for (Types.NestedField child : type.asNestedType().fields()) {
      fields += 1 + (child.type().isNestedType() ? count(child.type()) : 0);
    }
    return fields;
  }

  /** Primitive types as Iceberg writes them; nested ones by kind and what they hold next. */
  static String describe(Type type) {
    if (type.isListType()) {
      return "list<" + kind(type.asListType().elementType()) + ">";
    } else if (type.isMapType()) {
      return "map<" + kind(type.asMapType().keyType()) + ", "
          + kind(type.asMapType().valueType()) + ">";
    }
    return kind(type);
  }

  private static String kind(Type type) {
    return type.isPrimitiveType() ? type.toString()
        : type.typeId().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** At most {@code length} characters of {@code text}, never half a surrogate pair. */
  private static String cut(String text, int length) {
    if (text.length() <= length) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(length - 1)) ? length - 1 : length;
    return text.substring(0, end) + "…";
  }
}
