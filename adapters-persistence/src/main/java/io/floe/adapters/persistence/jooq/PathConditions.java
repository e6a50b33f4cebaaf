package io.floe.adapters.persistence.jooq;

import io.floe.domain.StoragePath;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The domain's segment-wise rules for storage paths ({@link StoragePath#isWithin},
 * {@link StoragePath#overlaps}) as SQL conditions on a path column. {@code starts_with} compares
 * text as it is, so {@code _} and {@code %} in a path are no wildcards, and the added {@code /}
 * keeps {@code a} from matching {@code ab}. The bucket root contains every path.
 */
final class PathConditions {
  private PathConditions() {}

  /** The column's path equals {@code path} or lies beneath it. */
  static Condition within(Field<String> column, StoragePath path) {
    if (path.isRoot()) {
      return DSL.trueCondition();
    }
    return column.eq(path.value()).or(beneath(column, path));
  }

  /** The column's path equals {@code path}, lies beneath it, or contains it. */
  static Condition overlaps(Field<String> column, StoragePath path) {
    if (path.isRoot()) {
      return DSL.trueCondition();
    }
    return column.eq(path.value()).or(beneath(column, path))
        .or(DSL.condition("starts_with({0}, {1} || '/')", DSL.val(path.value()), column));
  }

  private static Condition beneath(Field<String> column, StoragePath path) {
    return DSL.condition("starts_with({0}, {1})", column, DSL.val(path.value() + "/"));
  }
}
