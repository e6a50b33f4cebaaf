package io.floe.bootstrap;

import io.floe.application.service.webhooks.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How a server delivers to subscriptions (webhooks and Kafka topics): whether targets may lead
 * to loopback, link-local and private addresses, how often it looks for pending events, how
 * failed deliveries are retried and when a subscription is paused, how long it waits to connect
 * and for a whole attempt (connecting included), and how many delivery workers it runs.
 */
public record WebhookSettings(boolean privateTargets, Duration pollInterval, RetryPolicy retries,
    Duration connectTimeout, Duration attemptTimeout, int workers) {
  public static final int DEFAULT_WORKERS = 4;
  public static final WebhookSettings DEFAULTS = new WebhookSettings(false, Duration.ofSeconds(1),
      RetryPolicy.DEFAULT, Duration.ofSeconds(3), Duration.ofSeconds(5), DEFAULT_WORKERS);

  public WebhookSettings {
    Objects.requireNonNull(retries, "retries");
    for (Duration positive : new Duration[] {pollInterval, connectTimeout, attemptTimeout}) {
      if (positive.isNegative() || positive.isZero()) {
        throw new IllegalArgumentException("webhook intervals and timeouts must be positive");
      }
    }
    if (workers < 1 || workers > 64) {
      throw new IllegalArgumentException("delivery workers must be 1 to 64");
    }
  }

  public WebhookSettings(boolean privateTargets, Duration pollInterval, RetryPolicy retries,
      Duration connectTimeout, Duration attemptTimeout) {
    this(privateTargets, pollInterval, retries, connectTimeout, attemptTimeout, DEFAULT_WORKERS);
  }

  public WebhookSettings withPrivateTargets(boolean allowed) {
    return new WebhookSettings(allowed, pollInterval, retries, connectTimeout, attemptTimeout,
        workers);
  }

  public WebhookSettings withPollInterval(Duration interval) {
    return new WebhookSettings(privateTargets, interval, retries, connectTimeout, attemptTimeout,
        workers);
  }

  public WebhookSettings withRetries(RetryPolicy policy) {
    return new WebhookSettings(privateTargets, pollInterval, policy, connectTimeout,
        attemptTimeout, workers);
  }

  public WebhookSettings withAttemptTimeout(Duration timeout) {
    return new WebhookSettings(privateTargets, pollInterval, retries,
        connectTimeout.compareTo(timeout) < 0 ? connectTimeout : timeout, timeout, workers);
  }

  public WebhookSettings withWorkers(int count) {
    return new WebhookSettings(privateTargets, pollInterval, retries, connectTimeout,
        attemptTimeout, count);
  }
}
