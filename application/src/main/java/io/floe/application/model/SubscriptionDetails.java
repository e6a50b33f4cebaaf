package io.floe.application.model;

import java.util.List;
import java.util.Objects;

/** A subscription with its most recent delivery attempts, newest first. */
public record SubscriptionDetails(WebhookSubscription subscription,
    List<DeliveryAttempt> deliveries) {
  public SubscriptionDetails {
    Objects.requireNonNull(subscription, "subscription");
    deliveries = List.copyOf(deliveries);
  }
}
