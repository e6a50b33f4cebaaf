package io.floe.adapters.rest.iceberg;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.floe.adapters.rest.http.StrictJson;
import io.floe.application.iceberg.MetadataLimits;
import java.io.IOException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * JSON exactly as Iceberg's own REST client and server read and write it: iceberg-core's
 * serializers on a mapper configured the way Iceberg configures its own.
 */
public final class RestJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static {
    MAPPER.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    MAPPER.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    MAPPER.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    RESTSerializers.registerAll(MAPPER);
    // Recorded results of management changes (a garbage collection's report) carry instants.
    MAPPER.registerModule(new JavaTimeModule());
    MAPPER.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    StrictJson.configure(MAPPER);
  }

  private RestJson() {}

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
    }
  }

  /**
   * Parses and validates a request body; malformed JSON is the client's fault, a 400, and so are
   * schemas beyond {@code limits}, which are refused before iceberg-core builds them.
   */
  public static <T extends RESTRequest> T read(String body, Class<T> type,
      MetadataLimits limits) {
    if (body == null || body.isBlank()) {
      throw new BadRequestException("Request body is required");
    }
    T request;
    try {
      JsonNode tree = StrictJson.tree(MAPPER, body);
      if (tree == null || !tree.isObject()) {
        // Iceberg's parsers read a number or a list as an object without fields: a no-op.
        throw new BadRequestException("The request body must be a JSON object");
      }
      limits.checkDocument(tree, "the request body");
      request = MAPPER.treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      // Iceberg's own parsers fail inside Jackson with an exception that says what is wrong.
      boolean icebergSays = e.getCause() != null && !(e.getCause() instanceof IOException);
      throw new BadRequestException("Malformed request body: %s",
          icebergSays ? rootMessage(e) : StrictJson.describe(e));
    } catch (IllegalArgumentException | UnsupportedOperationException | NullPointerException e) {
      // Iceberg's parsers report an unknown update action as an unsupported operation and a
      // missing field as a null: both are the client's malformed body, not the server's fault.
      throw new BadRequestException("Malformed request body: %s", rootMessage(e));
    }
    if (request == null) {
      throw new BadRequestException("Request body is required");
    }
    try {
      request.validate();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new BadRequestException("Invalid request: %s", rootMessage(e));
    }
    return request;
  }

  /** Reads back a result this server wrote itself; a failure is the server's, not the client's. */
  static <T> T readRecorded(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot read a recorded " + type.getSimpleName(), e);
    }
  }

  /**
   * What was wrong, in the parser's words: the first line of the innermost message. A null where
   * a value was needed is said in words, not with the JVM's message about the code.
   */
  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    if (root instanceof NullPointerException || message == null) {
      return "a required value is missing or null";
    }
    return message.lines().findFirst().orElse("");
  }
}
