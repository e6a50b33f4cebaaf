package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.Invalid;
import io.floe.domain.Visibility;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Typed fields of a JSON request body. A field of the wrong type is a validation error that
 * names it; an absent or null field is empty.
 */
final class JsonFields {
  private final JsonNode body;

  JsonFields(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw Invalid.because("the request body must be a JSON object");
    }
    this.body = body;
  }

  JsonNode node(String field) {
    return body.get(field);
  }

  Optional<String> text(String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isTextual()) {
      throw Invalid.because(field + " must be a string");
    }
    return Optional.of(node.asText());
  }

  Optional<Boolean> bool(String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isBoolean()) {
      throw Invalid.because(field + " must be true or false");
    }
    return Optional.of(node.booleanValue());
  }

  /** A whole number of zero or more, such as a count of seconds. */
  Optional<Long> nonNegativeLong(String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.canConvertToExactIntegral() || !node.canConvertToLong() || node.asLong() < 0) {
      throw Invalid.because(field + " must be a whole number of zero or more");
    }
    return Optional.of(node.asLong());
  }

  Map<String, String> stringMap(String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw Invalid.because(field + " must be a JSON object");
    }
    Map<String, String> out = new LinkedHashMap<>();
    node.fields().forEachRemaining(entry -> {
      if (!entry.getValue().isTextual()) {
        throw Invalid.because(field + "." + entry.getKey() + " must be a string");
      }
      out.put(entry.getKey(), entry.getValue().asText());
    });
    return out;
  }

  Set<String> stringSet(String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return Set.of();
    }
    if (!node.isArray()) {
      throw Invalid.because(field + " must be a list of strings");
    }
    Set<String> out = new LinkedHashSet<>();
    node.forEach(item -> {
      if (!item.isTextual()) {
        throw Invalid.because(field + " must be a list of strings");
      }
      out.add(item.asText());
    });
    return out;
  }

  Optional<Visibility> visibility(String field) {
    return text(field).map(JsonFields::visibilityOf);
  }

  static Visibility visibilityOf(String raw) {
    try {
      return Visibility.valueOf(raw);
    } catch (IllegalArgumentException e) {
      throw Invalid.because("visibility must be PRIVATE or AUTHENTICATED_PUBLIC, got '" + raw
          + "'");
    }
  }
}
