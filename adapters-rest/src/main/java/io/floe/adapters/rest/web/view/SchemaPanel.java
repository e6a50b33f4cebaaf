package io.floe.adapters.rest.web.view;

import java.util.List;

/**
 * A page of the schema browser: its rows (rows {@code firstRow} to {@code lastRow} of all, from
 * 1), where the other pages are, and, when one field is opened, its full name and the way back to
 * the whole schema ({@code wholeSchemaHref}, else null). {@code unknownField} says that the field
 * asked for is not in the schema.
 */
public record SchemaPanel(List<SchemaRow> rows, int firstRow, int lastRow, Paging paging,
    String openedField, String wholeSchemaHref, boolean unknownField) {

  public boolean opened() {
    return wholeSchemaHref != null;
  }
}
