package io.floe.application.port.out;

/**
 * Turns the result of a use case into text an idempotency record keeps, and back, in the form
 * the caller's protocol gives it (Iceberg's own JSON for Iceberg REST models).
 */
public interface ResultCodec {
  String encode(Object result);

  <T> T decode(String encoded, Class<T> type);
}
