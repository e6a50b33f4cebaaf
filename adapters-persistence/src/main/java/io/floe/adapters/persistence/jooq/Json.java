package io.floe.adapters.persistence.jooq;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.JSONB;

/** JSONB columns holding string maps (namespace properties, bucket credentials). */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<LinkedHashMap<String, String>> STRING_MAP =
      new TypeReference<>() {};
  private static final TypeReference<LinkedHashMap<String, Object>> OBJECT_MAP =
      new TypeReference<>() {};

  private Json() {}

  static JSONB of(Map<String, ?> map) {
    try {
      return JSONB.valueOf(MAPPER.writeValueAsString(map));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot serialize " + map.keySet(), e);
    }
  }

  static Map<String, String> stringMap(JSONB json) {
    if (json == null) {
      return Map.of();
    }
    try {
      return MAPPER.readValue(json.data(), STRING_MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("corrupt JSON in the catalog: " + e.getMessage(), e);
    }
  }

  /** A JSON object of any values, such as an audit entry's details. */
  static Map<String, Object> objectMap(JSONB json) {
    if (json == null) {
      return Map.of();
    }
    try {
      return MAPPER.readValue(json.data(), OBJECT_MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("corrupt JSON in the catalog: " + e.getMessage(), e);
    }
  }

  static ObjectMapper mapper() {
    return MAPPER;
  }
}
