package io.floe.bootstrap;

import io.floe.application.service.webhooks.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How a server delivers webhooks: whether targets may lead to loopback, link-local and private
 * addresses, how often it looks for pending events, how failed deliveries are retried and when a
 * subscription is paused, and how long it waits to connect and for an answer.
 */
public record WebhookSettings(boolean privateTargets, Duration pollInterval, RetryPolicy retries,
    Duration connectTimeout, Duration answerTimeout) {
  public static final WebhookSettings DEFAULTS = new WebhookSettings(false, Duration.ofSeconds(1),
      RetryPolicy.DEFAULT, Duration.ofSeconds(5), Duration.ofSeconds(10));

  public WebhookSettings {
    Objects.requireNonNull(retries, "retries");
    for (Duration positive : new Duration[] {pollInterval, connectTimeout, answerTimeout}) {
      if (positive.isNegative() || positive.isZero()) {
        throw new IllegalArgumentException("webhook intervals and timeouts must be positive");
      }
    }
  }

  public WebhookSettings withPrivateTargets(boolean allowed) {
    return new WebhookSettings(allowed, pollInterval, retries, connectTimeout, answerTimeout);
  }

  public WebhookSettings withPollInterval(Duration interval) {
    return new WebhookSettings(privateTargets, interval, retries, connectTimeout, answerTimeout);
  }

  public WebhookSettings withRetries(RetryPolicy policy) {
    return new WebhookSettings(privateTargets, pollInterval, policy, connectTimeout,
        answerTimeout);
  }
}
