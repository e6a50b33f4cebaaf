package io.floe.adapters.persistence.cache;

import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records when tokens were last used off the request path: a request only notes the time in
 * memory, and a background thread writes what was noted every {@link #PERIOD}, all tokens in one
 * statement, and once more when the server stops. A stop without a flush (a kill) loses at most a
 * period of last-use times, which are informational.
 */
public final class TokenUseRecorder implements AutoCloseable {
  public static final Duration PERIOD = Duration.ofSeconds(5);
  private static final Logger LOG = LoggerFactory.getLogger(TokenUseRecorder.class);

  private final Consumer<Map<UUID, Instant>> writer;
  private final Map<UUID, Instant> pending = new ConcurrentHashMap<>();
  private final Worker flusher;

  /** Writes batches with {@code writer}: token id to the latest time it was used. */
  public TokenUseRecorder(Consumer<Map<UUID, Instant>> writer) {
    this(writer, new Workers(Clock.systemUTC()));
  }

  /** Writes batches on a thread kept alive among {@code workers}. */
  public TokenUseRecorder(Consumer<Map<UUID, Instant>> writer, Workers workers) {
    this.writer = writer;
    this.flusher = workers.every("floe-token-use", PERIOD, PERIOD, this::flushQuietly);
  }

  /** Notes that the token was used at {@code usedAt}; costs no database round trip. */
  public void record(UUID tokenId, Instant usedAt) {
    pending.merge(tokenId, usedAt, (noted, now) -> now.isAfter(noted) ? now : noted);
  }

  /** Writes everything noted so far; what fails to be written is kept for the next try. */
  public void flush() {
    Map<UUID, Instant> batch = new HashMap<>();
    pending.forEach((token, usedAt) -> {
      if (pending.remove(token, usedAt)) {
        batch.put(token, usedAt);
      }
    });
    if (batch.isEmpty()) {
      return;
    }
    try {
      writer.accept(batch);
    } catch (RuntimeException e) {
      batch.forEach(this::record);
      throw e;
    }
  }

  private void flushQuietly() {
    try {
      flush();
    } catch (RuntimeException e) {
      LOG.warn("could not record when tokens were last used; retrying: {}", e.toString());
    }
  }

  @Override
  public void close() {
    flusher.close();
    flushQuietly();
  }
}
