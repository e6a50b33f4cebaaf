package io.floe.adapters.rest.management;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.floe.adapters.rest.http.StrictJson;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * JSON of the management API: snake_case field names and ISO-8601 times, as the arraylake client
 * reads and writes them. Request bodies are parsed whatever their Content-Type says, because that
 * client sends JSON without one.
 */
public final class ManagementJson {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .registerModule(new JavaTimeModule())
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  static {
    StrictJson.configure(MAPPER);
  }

  private ManagementJson() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
    }
  }

  /** Parses a body, which must be a JSON object; malformed JSON is a 400 naming what was wrong. */
  public static <T> T read(String body, Class<T> type) {
    if (body == null || body.isBlank()) {
      throw new BadRequestException("Request body is required");
    }
    try {
      JsonNode tree = StrictJson.tree(MAPPER, body);
      if (tree == null || !tree.isObject()) {
        throw new BadRequestException("The request body must be a JSON object");
      }
      return MAPPER.treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw new BadRequestException("Malformed request body: %s", StrictJson.describe(e));
    }
  }
}
