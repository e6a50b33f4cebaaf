package io.floe.bootstrap;

import io.floe.application.port.out.WebhookMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Webhook delivery in {@code /metrics}, per subscription: {@code floe_webhook_deliveries_total}
 * and {@code floe_webhook_failures_total}, and how far it is behind the feed,
 * {@code floe_webhook_lag_events} and {@code floe_webhook_lag_seconds}, as of the last round of
 * the server that delivers it (another server shows the subscription as it last delivered it).
 */
final class WebhookDeliveryMetrics implements WebhookMetrics {
  private record Lag(AtomicLong events, AtomicLong millis) {}

  private final MeterRegistry registry;
  private final Map<UUID, Counter> deliveries = new ConcurrentHashMap<>();
  private final Map<UUID, Counter> failures = new ConcurrentHashMap<>();
  private final Map<UUID, Lag> lags = new ConcurrentHashMap<>();

  WebhookDeliveryMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void delivered(UUID subscription) {
    deliveries.computeIfAbsent(subscription, id -> Counter.builder("floe.webhook.deliveries")
        .description("Webhook deliveries a receiver acknowledged")
        .tag("subscription", id.toString()).register(registry)).increment();
  }

  @Override
  public void failed(UUID subscription) {
    failures.computeIfAbsent(subscription, id -> Counter.builder("floe.webhook.failures")
        .description("Webhook delivery attempts that failed")
        .tag("subscription", id.toString()).register(registry)).increment();
  }

  @Override
  public void lag(UUID subscription, long eventsBehind, Duration behind) {
    Lag lag = lags.computeIfAbsent(subscription, id -> {
      Lag created = new Lag(new AtomicLong(), new AtomicLong());
      Gauge.builder("floe.webhook.lag.events", created.events(), AtomicLong::get)
          .description("Events a subscription has not been delivered yet (counted up to 1000)")
          .tag("subscription", id.toString()).register(registry);
      Gauge.builder("floe.webhook.lag.seconds", created.millis(), millis -> millis.get() / 1000.0)
          .description("Since when the oldest event not yet delivered to a subscription waits")
          .tag("subscription", id.toString()).register(registry);
      return created;
    });
    lag.events().set(eventsBehind);
    lag.millis().set(behind.toMillis());
  }
}
