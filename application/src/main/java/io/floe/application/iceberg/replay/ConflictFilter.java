package io.floe.application.iceberg.replay;

import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;

/**
 * The rows a delete or overwrite is about, which decide whether it can be replayed onto rows
 * another writer added meanwhile. A commit over REST does not carry its predicate, so a client
 * states it in its snapshot summary under {@value #SUMMARY_PROPERTY}, as an Iceberg expression in
 * the REST catalog's JSON form (e.g. {@code {"type":"eq","term":"station","value":"KSEA"}}).
 * Without it the predicate is "every row": such a change replays only when the other writers added
 * no rows at all.
 */
public record ConflictFilter(Expression expression, String statedAs) {
  public static final String SUMMARY_PROPERTY = "floe.conflict-detection-filter";

  /** The filter a snapshot summary states, checked against the table's schema. */
  static ConflictFilter of(Map<String, String> summary, Schema schema, String table) {
    String json = summary == null ? null : summary.get(SUMMARY_PROPERTY);
    if (json == null) {
      return new ConflictFilter(Expressions.alwaysTrue(), null);
    }
    Expression expression;
    try {
      expression = ExpressionParser.fromJson(json, schema);
      Binder.bind(schema.asStruct(), expression, true);
    } catch (IllegalArgumentException | ValidationException | IllegalStateException e) {
      throw new BadRequestException("The snapshot summary's %s is not an expression over the "
          + "columns of table %s: %s", SUMMARY_PROPERTY, table, e.getMessage());
    }
    return new ConflictFilter(expression, json);
  }

  /** How a conflict names the predicate: as the client stated it. */
  public String describe() {
    return statedAs != null ? statedAs
        : "every row (the commit states no " + SUMMARY_PROPERTY + ")";
  }
}
