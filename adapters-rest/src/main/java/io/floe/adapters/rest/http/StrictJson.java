package io.floe.adapters.rest.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.type.LogicalType;

/**
 * How request bodies are read, for both APIs: a field takes values of its own JSON type only
 * (Jackson would otherwise read {@code 123} as the name {@code "123"} and {@code 1} as
 * {@code true}), and what is wrong with a body is said in terms of the body, never of the Java
 * types it was read into.
 */
public final class StrictJson {
  private StrictJson() {}

  /** Makes {@code mapper} refuse numbers and booleans for text, and numbers and text for flags. */
  public static ObjectMapper configure(ObjectMapper mapper) {
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    return mapper;
  }

  /**
   * The body's one JSON value, refusing anything after it: Jackson alone would read an object
   * followed by a stray brace as the object. (Only here, at the top: Iceberg's parsers read
   * parts of a body as values of their own, which the same check would refuse.)
   */
  public static JsonNode tree(ObjectMapper mapper, String body) throws JsonProcessingException {
    return mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(body);
  }

  /** What is wrong with a body Jackson could not read: the field and its problem, or the syntax. */
  public static String describe(JsonProcessingException error) {
    if (error instanceof MismatchedInputException mismatch) {
      String field = path(mismatch);
      return field.isEmpty() ? "the body does not have the expected structure"
          : "field '" + field + "' has the wrong type";
    }
    String message = error.getOriginalMessage();
    return message == null ? "it is not valid JSON" : message.lines().findFirst().orElse("");
  }

  private static String path(JsonMappingException error) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : error.getPath()) {
      if (reference.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }
}
