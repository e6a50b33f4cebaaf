package io.floe.adapters.rest.iceberg;

import io.floe.application.port.out.ResultCodec;

/** Results of idempotent requests kept as the Iceberg JSON they were answered with. */
public final class IcebergResultCodec implements ResultCodec {
  @Override
  public String encode(Object result) {
    return RestJson.write(result);
  }

  @Override
  public <T> T decode(String encoded, Class<T> type) {
    return RestJson.readRecorded(encoded, type);
  }
}
