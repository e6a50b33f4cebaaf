package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;

/**
 * A target as a caller asks for it, not yet checked: a webhook URL, or a Kafka destination with
 * the password of its SASL/PLAIN user, if it has one. {@code toString} never shows the password.
 */
public sealed interface SubscriptionTargetRequest {
  record Webhook(String url) implements SubscriptionTargetRequest {}

  record Kafka(String bootstrapServers, String topic, boolean tls, Optional<String> username,
      Optional<String> password) implements SubscriptionTargetRequest {
    public Kafka {
      Objects.requireNonNull(username, "username");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
      return "Kafka[bootstrapServers=" + bootstrapServers + ", topic=" + topic + ", tls=" + tls
          + ", username=" + username + "]";
    }
  }
}
