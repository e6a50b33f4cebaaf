package io.floe.bootstrap;

import io.floe.application.model.SubscriptionTarget;
import io.floe.application.port.out.DeliveryChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one delivery channel subscription delivery is given: the adapter registered for each kind
 * of target (its class), chosen here when the server is composed, so that the application never
 * asks which kind a target is. A kind with no adapter is a failed attempt, not a crash.
 */
final class DeliveryChannels implements DeliveryChannel<SubscriptionTarget> {
  private final Map<Class<?>, DeliveryChannel<?>> byKind = new HashMap<>();

  <T extends SubscriptionTarget> DeliveryChannels with(Class<T> kind,
      DeliveryChannel<T> channel) {
    byKind.put(kind, channel);
    return this;
  }

  @Override
  public Outcome deliver(SubscriptionTarget target, Optional<String> password, Message message) {
    @SuppressWarnings("unchecked") // registered by with(), under the class it delivers to
    DeliveryChannel<SubscriptionTarget> channel =
        (DeliveryChannel<SubscriptionTarget>) byKind.get(target.getClass());
    if (channel == null) {
      return Outcome.failed(Optional.empty(), "this server cannot deliver to "
          + target.describe());
    }
    return channel.deliver(target, password, message);
  }
}
