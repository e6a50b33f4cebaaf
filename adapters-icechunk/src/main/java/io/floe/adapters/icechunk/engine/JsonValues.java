package io.floe.adapters.icechunk.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsed JSON as the same JSON-like Java values commit metadata decodes to: {@link Long} (or
 * {@link BigInteger} past its range) for integers, {@link Double} for other numbers, and
 * {@code List}/{@code Map} in document order.
 */
final class JsonValues {
  private JsonValues() {}

  static Object toJava(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      BigInteger v = node.bigIntegerValue();
      return v.bitLength() <= 63 ? (Object) v.longValue() : v;
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isArray()) {
      List<Object> out = new ArrayList<>(node.size());
      node.elements().forEachRemaining(e -> out.add(toJava(e)));
      return out;
    }
    if (node.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> out.put(e.getKey(), toJava(e.getValue())));
      return out;
    }
    // Binary and POJO nodes come only from Java values, never from parsed documents.
    return node.asText();
  }
}
