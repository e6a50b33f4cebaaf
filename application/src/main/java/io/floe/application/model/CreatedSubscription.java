package io.floe.application.model;

import java.util.Objects;

/**
 * A subscription just created, with the secret that signs its deliveries: shown this once, since
 * the server keeps it sealed.
 */
public record CreatedSubscription(WebhookSubscription subscription, String secret) {
  public CreatedSubscription {
    Objects.requireNonNull(subscription, "subscription");
    Objects.requireNonNull(secret, "secret");
  }
}
