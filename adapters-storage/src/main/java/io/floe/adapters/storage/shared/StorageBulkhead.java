package io.floe.adapters.storage.shared;

import io.floe.application.port.out.StorageUnavailableException;
import io.floe.domain.BucketConfig;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * At most so many of the server's calls in flight to one store at a time. A store that stopped
 * answering holds each call for up to the clients' time bound; without a limit, requests for it
 * would take every request thread and every other bucket would wait too. Past the limit a call
 * waits at most {@link #WAIT} for a call to end (a healthy store ends its calls in milliseconds,
 * so bursts such as an Icechunk commit's parallel uploads only queue), and is then refused as
 * unavailable storage (a 503 with {@code Retry-After}), holding nothing.
 *
 * <p>A store is a bucket at an endpoint: bucket configurations naming the same bucket share its
 * limit, because they share its outage.
 */
public final class StorageBulkhead {
  /** The default limit: a dead store holds at most this many of the server's request threads. */
  public static final int DEFAULT_CALLS_PER_BUCKET = 16;
  /** How long a call past the limit waits for room before it is refused. */
  public static final Duration WAIT = Duration.ofSeconds(1);

  /** A call to a store that may fail with {@code E}. */
  @FunctionalInterface
  public interface Call<T, E extends Exception> {
    T call() throws E;
  }

  private final int callsPerBucket;
  private final ConcurrentMap<String, Semaphore> stores = new ConcurrentHashMap<>();

  public StorageBulkhead(int callsPerBucket) {
    if (callsPerBucket < 1) {
      throw new IllegalArgumentException("at least one storage call per bucket is needed");
    }
    this.callsPerBucket = callsPerBucket;
  }

  public int callsPerBucket() {
    return callsPerBucket;
  }

  /** {@code call}, if the bucket's store has room for one more call in flight. */
  public <T, E extends Exception> T call(BucketConfig bucket, Call<T, E> call) throws E {
    Semaphore permits = stores.computeIfAbsent(storeOf(bucket),
        store -> new Semaphore(callsPerBucket));
    if (!acquired(permits)) {
      throw new StorageUnavailableException("The storage of bucket configuration '"
          + bucket.nickname() + "' has " + callsPerBucket + " calls in flight already, which is "
          + "as many as one bucket may have: it is slow or not answering; try again later");
    }
    try {
      return call.call();
    } finally {
      permits.release();
    }
  }

  private static boolean acquired(Semaphore permits) {
    try {
      return permits.tryAcquire() || permits.tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Calls in flight to the bucket's store now. */
  public int inFlight(BucketConfig bucket) {
    Semaphore permits = stores.get(storeOf(bucket));
    return permits == null ? 0 : callsPerBucket - permits.availablePermits();
  }

  private static String storeOf(BucketConfig bucket) {
    return bucket.platform() + " " + bucket.endpoint().orElse("") + " " + bucket.bucket();
  }
}
