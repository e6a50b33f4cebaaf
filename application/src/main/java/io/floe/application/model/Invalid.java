package io.floe.application.model;

import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * Validation failures of management commands: 422, which the management API's clients report as a
 * validation error naming what was wrong.
 */
public final class Invalid {
  private Invalid() {}

  public static UnprocessableEntityException because(String message) {
    // Passed as an argument so that a '%' in user input is never read as a format directive.
    return new UnprocessableEntityException("%s", message);
  }
}
