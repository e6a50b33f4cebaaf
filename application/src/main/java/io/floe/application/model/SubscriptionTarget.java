package io.floe.application.model;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a subscription delivers: a webhook URL, or a Kafka topic. Both are delivered by the same
 * machinery (one feed position per subscription, one event at a time in feed order, retries with
 * back-off, pause, what the owner may read, the delivery log); only the last step differs.
 */
public sealed interface SubscriptionTarget {
  /** What the API and the delivery log name the target by; never a credential. */
  String describe();

  /** Each event {@code POST}ed to {@code url}. */
  record Webhook(URI url) implements SubscriptionTarget {
    public Webhook {
      Objects.requireNonNull(url, "url");
    }

    @Override
    public String describe() {
      return url.toString();
    }
  }

  /**
   * Each event a record of {@code topic} on the cluster reached through {@code bootstrapServers}
   * ({@code host:port,...}), over TLS when {@code tls}, authenticated with SASL/PLAIN as
   * {@code username} when one is given (its password is kept sealed, apart from this).
   */
  record Kafka(String bootstrapServers, String topic, boolean tls, Optional<String> username)
      implements SubscriptionTarget {
    public Kafka {
      Objects.requireNonNull(bootstrapServers, "bootstrapServers");
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(username, "username");
    }

    @Override
    public String describe() {
      return "kafka://" + bootstrapServers + "/" + topic;
    }
  }
}
