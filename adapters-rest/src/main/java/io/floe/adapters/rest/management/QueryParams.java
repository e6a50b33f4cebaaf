package io.floe.adapters.rest.management;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.Invalid;
import io.javalin.http.Context;
import java.util.Locale;
import java.util.Optional;

/** Query parameters of the management API; a malformed one is a validation error naming it. */
final class QueryParams {
  private final Context ctx;

  QueryParams(Context ctx) {
    this.ctx = ctx;
  }

  Optional<String> text(String name) {
    return Optional.ofNullable(ctx.queryParam(name));
  }

  boolean flag(String name) {
    String raw = ctx.queryParam(name);
    if (raw == null || raw.isEmpty()) {
      return false;
    }
    return switch (raw.toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes" -> true;
      case "false", "0", "no" -> false;
      default -> throw Invalid.because(name + " must be true or false, got '" + raw + "'");
    };
  }

  int integer(String name, int fallback) {
    String raw = ctx.queryParam(name);
    if (raw == null || raw.isEmpty()) {
      return fallback;
    }
    try {
      return Integer.parseInt(raw.strip());
    } catch (NumberFormatException e) {
      throw Invalid.because(name + " must be an integer, got '" + raw + "'");
    }
  }

  /** A parameter that carries a JSON document, such as {@code filter_metadata}. */
  Optional<JsonNode> json(String name) {
    String raw = ctx.queryParam(name);
    if (raw == null || raw.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(ManagementJson.mapper().readTree(raw));
    } catch (JsonProcessingException e) {
      throw Invalid.because(name + " is not valid JSON: " + e.getOriginalMessage());
    }
  }
}
