package io.floe.adapters.rest.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.floe.adapters.rest.management.ManagementJson;
import io.floe.adapters.rest.management.MetadataValues;
import io.floe.application.model.Invalid;
import io.floe.domain.MetadataValue;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Typed metadata as people type it into a form: {@code key = value} entries, where the value is
 * read as JSON when it is JSON ({@code 42}, {@code true}, {@code null}, {@code "text"},
 * {@code ["a", 1]}) and as text otherwise. The values then go through the same rules as the
 * management API's JSON.
 */
public final class MetadataText {
  private MetadataText() {}

  /** Entries one a line, for the metadata editor. */
  public static Map<String, MetadataValue> parseLines(String text) {
    return parse(text, Pattern.compile("\\R"), "metadata");
  }

  /** Entries separated by semicolons, for the one-line metadata filter. */
  public static Map<String, MetadataValue> parseFilter(String text) {
    return parse(text, Pattern.compile(";"), "metadata filter");
  }

  /** The editor's text for existing metadata: sorted, each value as JSON unless plain text. */
  public static String format(Map<String, MetadataValue> metadata) {
    StringBuilder out = new StringBuilder();
    new TreeMap<>(metadata).forEach((key, value) ->
        out.append(key).append(" = ").append(value(value)).append('\n'));
    return out.toString();
  }

  /** One value as the editor shows it: text as it is, unless it would read back as another type. */
  public static String value(MetadataValue value) {
    Object plain = MetadataValues.toJson(Map.of("v", value)).get("v");
    if (plain instanceof String text && !readsAsJson(text) && text.equals(text.strip())) {
      return text;
    }
    return ManagementJson.write(plain);
  }

  /** The type of a value, as the pages label it. */
  public static String type(MetadataValue value) {
    if (value instanceof MetadataValue.Text) {
      return "text";
    } else if (value instanceof MetadataValue.Number) {
      return "number";
    } else if (value instanceof MetadataValue.Bool) {
      return "boolean";
    } else if (value instanceof MetadataValue.ListOf) {
      return "list";
    }
    return "null";
  }

  private static Map<String, MetadataValue> parse(String text, Pattern separator, String field) {
    ObjectNode object = ManagementJson.mapper().createObjectNode();
    if (text == null) {
      return Map.of();
    }
    int number = 0;
    for (String entry : separator.split(text)) {
      number++;
      if (entry.isBlank()) {
        continue;
      }
      int equals = entry.indexOf('=');
      if (equals < 0) {
        throw Invalid.because(field + ": entry " + number + " ('" + entry.strip()
            + "') is not of the form key = value");
      }
      String key = entry.substring(0, equals).strip();
      if (key.isEmpty()) {
        throw Invalid.because(field + ": entry " + number + " has no key");
      }
      if (object.has(key)) {
        throw Invalid.because(field + ": key '" + key + "' is given twice");
      }
      object.set(key, node(entry.substring(equals + 1).strip()));
    }
    return MetadataValues.fromJson(object, field);
  }

  private static JsonNode node(String value) {
    if (readsAsJson(value)) {
      try {
        return ManagementJson.mapper().readTree(value);
      } catch (JsonProcessingException e) {
        throw Invalid.because("'" + value + "' looks like JSON but is not: "
            + e.getOriginalMessage());
      }
    }
    return TextNode.valueOf(value);
  }

  /** Whether a value is meant as JSON: a number, a literal, a quoted string or a list. */
  private static boolean readsAsJson(String value) {
    return value.equals("true") || value.equals("false") || value.equals("null")
        || value.startsWith("\"") || value.startsWith("[")
        || value.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  }
}
