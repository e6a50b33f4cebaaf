package io.floe.application.port.out;

import java.time.Duration;
import java.util.UUID;

/** What webhook delivery reports to the server's metrics. */
public interface WebhookMetrics {
  WebhookMetrics NONE = new WebhookMetrics() {
    @Override
    public void delivered(UUID subscription) {}

    @Override
    public void failed(UUID subscription) {}

    @Override
    public void lag(UUID subscription, long eventsBehind, Duration behind) {}
  };

  void delivered(UUID subscription);

  void failed(UUID subscription);

  /** How far the subscription is behind the feed: events not yet delivered, and since when. */
  void lag(UUID subscription, long eventsBehind, Duration behind);
}
