package io.floe.adapters.storage.shared;

import java.time.Duration;

/**
 * How long the server's storage clients wait, the same for every platform: a store that stopped
 * answering costs a request at most {@link #CALL} per call, retries included, where the SDKs'
 * defaults have no bound at all (a minute and more was measured). A request stops at its first
 * failed storage call, so this is also about what the request waits on its store.
 */
public final class StorageTimeouts {
  /** A TCP connection (or a pooled one) not had by then is not going to be. */
  public static final Duration CONNECT = Duration.ofSeconds(2);
  /**
   * The longest silence while an answer is read, and the longest one attempt may take: a
   * metadata file must upload within it (64 MiB needs 16 MiB/s).
   */
  public static final Duration ATTEMPT = Duration.ofSeconds(4);
  /** One call, every retry included. */
  public static final Duration CALL = Duration.ofSeconds(8);
  /** Tries of one call: throttling (503 SlowDown) and lost answers are retried within the bound. */
  public static final int ATTEMPTS = 3;

  private StorageTimeouts() {}
}
