package io.floe.adapters.rest.http;

import java.time.Duration;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.handler.IdleTimeoutHandler;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * How Floe's request threads are shared, so that no kind of client can take all of them.
 *
 * <ul>
 *   <li>Requests block on PostgreSQL, storage and their clients, so there are more threads than
 *       cores ({@value #MAX_THREADS}); beyond a few dozen they would only queue at the database.
 *   <li>At most {@value #MAX_ROUTED_REQUESTS} requests at a time run Floe's routes; more wait,
 *       holding no thread, for up to {@link #MAX_WAIT} and then get a 503 with {@code Retry-After}
 *       ({@link RetryAfter}).
 *       The probes ({@link #PROBES}) never wait: the threads left over are theirs, so
 *       {@code /health} answers however busy the routes are.
 *   <li>A request whose client sends nothing for {@link #IDLE_TIMEOUT}, or sends its body slower
 *       than {@value #MIN_BODY_BYTES_PER_SECOND} bytes a second on average from its first byte,
 *       fails (408) instead of holding its thread: Jetty's {@link IdleTimeoutHandler} and the
 *       minimum request data rate of its {@link HttpConfiguration}. (Jetty's
 *       {@code MinimumDataRateHandler} is not used: it divides the bytes every request read since
 *       the server started by one request's time, which lets any trickle through once the server
 *       has read a few megabytes.)
 * </ul>
 *
 * <p>Routes read a body only once they know who is calling ({@link RequestInput#body}), and at
 * most {@value AnonymousRequests#MAX} requests without credentials may be in the routes at a time
 * ({@link AnonymousRequests}).
 */
public final class RequestThreads {
  /** Jetty's request threads, its acceptor and selector included. */
  public static final int MAX_THREADS = 64;
  /** Requests running Floe's routes at once; the other threads serve probes and Jetty's I/O. */
  public static final int MAX_ROUTED_REQUESTS = 48;
  /** How long a request waits for a turn when {@value #MAX_ROUTED_REQUESTS} are running. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(20);
  /** The longest a request may wait for its client's next byte, or the client for Floe's. */
  public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
  /** The slowest average rate at which a client may send a body once Floe reads it. */
  public static final long MIN_BODY_BYTES_PER_SECOND = 1024;
  /** Paths that are answered whatever else the server is doing: liveness, readiness, metrics. */
  public static final Set<String> PROBES = Set.of("/health", "/ready", "/metrics");

  private static final int MIN_THREADS = 8;

  private RequestThreads() {}

  public static QueuedThreadPool pool() {
    QueuedThreadPool pool = new QueuedThreadPool(MAX_THREADS, MIN_THREADS);
    pool.setName("floe-http");
    return pool;
  }

  /** The minimum rate at which a body must arrive, for every connection's HTTP settings. */
  public static void limitRates(HttpConfiguration http) {
    http.setMinRequestDataRate(MIN_BODY_BYTES_PER_SECOND);
  }

  /**
   * {@code routes}, behind the limits above; a request with the cookie {@code sessionCookie} or
   * an {@code Authorization} header carries credentials ({@link AnonymousRequests}).
   */
  public static Handler guard(Handler routes, String sessionCookie) {
    IdleTimeoutHandler idle = new IdleTimeoutHandler(routes);
    idle.setIdleTimeoutMs(IDLE_TIMEOUT.toMillis());
    QoSHandler turns = new QoSHandler(new AnonymousRequests(idle, PROBES, sessionCookie));
    turns.setMaxRequestCount(MAX_ROUTED_REQUESTS);
    turns.setMaxSuspend(MAX_WAIT);
    PROBES.forEach(turns::excludePath);
    return turns;
  }
}
