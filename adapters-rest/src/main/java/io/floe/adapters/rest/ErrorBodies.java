package io.floe.adapters.rest;

import io.floe.adapters.rest.iceberg.RestJson;
import io.floe.adapters.rest.management.ManagementErrors;
import io.floe.adapters.rest.management.ManagementRequest;
import io.floe.adapters.rest.management.ManagementJson;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The body of an error answer: the management API's shape under its paths, the Iceberg error
 * model everywhere else, and both at once when the request could not even be parsed, because then
 * nobody knows which API it was meant for.
 */
final class ErrorBodies {
  private ErrorBodies() {}

  static String of(String path, ErrorResponse error) {
    return ManagementRequest.isManagementPath(path)
        ? ManagementErrors.body(error) : RestJson.write(error);
  }

  /** For a request the HTTP layer refused before any route: Iceberg's model plus a detail. */
  static String ofUnparsed(ErrorResponse error) {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("message", error.message());
    inner.put("type", error.type());
    inner.put("code", error.code());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", inner);
    body.put("detail", error.message());
    return ManagementJson.write(body);
  }
}
