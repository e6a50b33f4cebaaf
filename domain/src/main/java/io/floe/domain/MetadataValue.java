package io.floe.domain;

import java.util.List;
import java.util.Objects;

/**
 * A typed value of a namespace's or repo's descriptive metadata: a string, a number, a boolean,
 * null, or a list of those (lists do not nest).
 */
public sealed interface MetadataValue {
  record Text(String value) implements MetadataValue {
    public Text {
      Objects.requireNonNull(value, "value");
      StorableText.require(value, "a metadata value");
    }
  }

  record Number(java.math.BigDecimal value) implements MetadataValue {
    public Number {
      Objects.requireNonNull(value, "value");
    }
  }

  record Bool(boolean value) implements MetadataValue {}

  record Null() implements MetadataValue {}

  record ListOf(List<MetadataValue> values) implements MetadataValue {
    public ListOf {
      values = List.copyOf(values);
      for (MetadataValue value : values) {
        if (value instanceof ListOf) {
          throw new DomainException("metadata lists cannot contain lists");
        }
      }
    }
  }
}
