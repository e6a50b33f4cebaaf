package io.floe.bootstrap;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a command has started (the embedded PostgreSQL, the database pool, the HTTP server, ...),
 * stopped in reverse order on close; one that fails to stop does not keep the others running.
 */
final class StartedServices implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StartedServices.class);

  private final Deque<AutoCloseable> started = new ArrayDeque<>();

  <T extends AutoCloseable> T push(T service) {
    started.push(service);
    return service;
  }

  @Override
  public void close() {
    while (!started.isEmpty()) {
      AutoCloseable next = started.pop();
      try {
        next.close();
      } catch (Exception e) {
        LOG.warn("could not stop {} cleanly: {}", next.getClass().getSimpleName(), e.toString());
      }
    }
  }
}
