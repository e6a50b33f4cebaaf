package io.floe.application.port.out;

import io.floe.application.model.SubscriptionTarget;
import java.util.Map;
import java.util.Optional;

/**
 * Publishes one record to a subscription's Kafka topic and waits until the cluster has
 * acknowledged it (written to every in-sync replica) or the attempt failed. Every implementation
 * bounds the time to reach the cluster and to be answered, and never retries past that bound on
 * its own: the caller decides when to try again.
 */
public interface KafkaPublisher {
  /**
   * Publishes {@code value} under {@code key} with {@code headers}; empty once acknowledged, else
   * why it was not. {@code password} is the SASL/PLAIN password of the target's user, if any.
   */
  Optional<String> publish(SubscriptionTarget.Kafka target, Optional<String> password,
      String key, Map<String, String> headers, byte[] value);
}
