package io.floe.adapters.rest.management;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Errors of the management API in the shape its clients expect: {@code {"detail": "..."}} with the
 * same status the Iceberg routes would use for the same exception (one decision, one place), and
 * 422 for validation errors, which the arraylake client maps to its validation error.
 */
public final class ManagementErrors {
  private ManagementErrors() {}

  public static String body(ErrorResponse error) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("detail", error.message());
    return ManagementJson.write(body);
  }
}
