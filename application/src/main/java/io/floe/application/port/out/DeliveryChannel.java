package io.floe.application.port.out;

import io.floe.application.model.SubscriptionTarget;
import java.util.Map;
import java.util.Optional;

/**
 * Delivers one signed event to a subscription's target of kind {@code T} (a webhook URL, a Kafka
 * topic) and says whether the target acknowledged it. One adapter per kind; the server picks the
 * adapter by the target's kind when it is composed, so delivery itself never asks which kind a
 * target is.
 *
 * <p>Every implementation bounds the whole attempt (reaching the target and its answer together)
 * by the timeout it was built with, never retries on its own (the caller decides when to try
 * again), and never follows the target elsewhere (no redirect).
 */
public interface DeliveryChannel<T extends SubscriptionTarget> {
  /**
   * An event as it goes out: its id (the same on every attempt), the key that keeps one object's
   * events together (a Kafka record's key), the signature headers as a webhook request names
   * them, and the body (the CloudEvent in structured mode).
   */
  record Message(String id, String key, Map<String, String> headers, byte[] body) {
    public Message {
      headers = Map.copyOf(headers);
    }
  }

  /**
   * Whether the target acknowledged the event; the status it answered, when it speaks HTTP; why
   * the attempt failed, when it did.
   */
  record Outcome(boolean delivered, Optional<Integer> status, Optional<String> error) {
    public static Outcome acknowledged(Optional<Integer> status) {
      return new Outcome(true, status, Optional.empty());
    }

    public static Outcome failed(Optional<Integer> status, String why) {
      return new Outcome(false, status, Optional.of(why));
    }
  }

  /**
   * Sends {@code message} to {@code target}; {@code password} is the secret of the target's user
   * (a Kafka SASL/PLAIN password), if it has one.
   */
  Outcome deliver(T target, Optional<String> password, Message message);
}
