package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.ResultCodec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps each encoded result as it is and hands out a handle for it: what an idempotency record
 * stores is then the handle, and a replay decodes the very result recorded.
 */
public final class InMemoryResultCodec implements ResultCodec {
  private final Map<String, Object> results = new ConcurrentHashMap<>();
  private final AtomicLong handles = new AtomicLong();

  @Override
  public String encode(Object result) {
    String handle = "result-" + handles.incrementAndGet();
    results.put(handle, result);
    return handle;
  }

  @Override
  public <T> T decode(String encoded, Class<T> type) {
    Object result = results.get(encoded);
    if (result == null) {
      throw new IllegalArgumentException("no result was encoded as " + encoded);
    }
    return type.cast(result);
  }
}
