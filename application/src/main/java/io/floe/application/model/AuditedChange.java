package io.floe.application.model;

import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One change as the audit log records it: what was done, to what, and a few facts about it.
 * Details are strings, numbers, booleans, lists of strings and small objects of these (a new
 * snapshot's summary), and never hold a secret or a token: ids, names, locations and the names of
 * what changed, not values that might be sensitive.
 */
public record AuditedChange(AuditAction action, AuditTarget target, Map<String, Object> details) {
  public AuditedChange {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(target, "target");
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
  }

  public static AuditedChange of(AuditAction action, AuditTarget target) {
    return new AuditedChange(action, target, Map.of());
  }

  public static AuditedChange of(AuditAction action, AuditTarget.Kind kind, Object name) {
    return of(action, AuditTarget.of(kind, name));
  }

  /**
   * This change with one more detail. An absent value (null, an empty {@link Optional}) adds
   * nothing; ids, instants and enums are recorded as text, collections as lists of text.
   */
  public AuditedChange with(String key, Object value) {
    Object recorded = value instanceof Optional<?> optional ? optional.orElse(null) : value;
    if (recorded == null) {
      return this;
    }
    Map<String, Object> more = new LinkedHashMap<>(details);
    more.put(key, jsonValue(recorded));
    return new AuditedChange(action, target, more);
  }

  private static Object jsonValue(Object value) {
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Collection<?> items) {
      return items.stream().map(item -> item instanceof Map<?, ?> ? jsonValue(item)
          : String.valueOf(item)).toList();
    }
    if (value instanceof Map<?, ?> entries) {
      Map<String, Object> object = new LinkedHashMap<>();
      entries.forEach((key, item) -> {
        if (item != null) {
          object.put(String.valueOf(key), jsonValue(item));
        }
      });
      return Collections.unmodifiableMap(object);
    }
    if (value instanceof Enum<?> constant) {
      return constant.name();
    }
    if (value instanceof Instant || value instanceof UUID) {
      return value.toString();
    }
    return String.valueOf(value);
  }
}
