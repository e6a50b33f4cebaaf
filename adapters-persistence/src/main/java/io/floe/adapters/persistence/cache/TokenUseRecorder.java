package io.floe.adapters.persistence.cache;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
  private final ScheduledExecutorService flusher;

  /** Writes batches with {@code writer}: token id to the latest time it was used. */
  public TokenUseRecorder(Consumer<Map<UUID, Instant>> writer) {
    this.writer = writer;
    this.flusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "floe-token-use");
      thread.setDaemon(true);
      return thread;
    });
    flusher.scheduleWithFixedDelay(this::flushQuietly, PERIOD.toMillis(), PERIOD.toMillis(),
        TimeUnit.MILLISECONDS);
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
    flusher.shutdown();
    try {
      flusher.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flushQuietly();
  }
}
