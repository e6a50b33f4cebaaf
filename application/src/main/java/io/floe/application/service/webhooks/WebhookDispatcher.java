package io.floe.application.service.webhooks;

import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.ServerWideLocks;
import io.floe.application.port.out.WebhookSubscriptionStore;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One round of webhook delivery on this server: every subscription that is due, each under its
 * own server-wide lock, so that of the servers sharing the database exactly one delivers a
 * subscription at a time; a subscription another server is delivering is left to it. A server
 * that crashes loses its locks with its database sessions, and the next round of any other
 * server takes its subscriptions over. One subscription's failure does not stop the round.
 */
public final class WebhookDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);

  private final WebhookSubscriptionStore store;
  private final SubscriptionDelivery delivery;
  private final ServerWideLocks locks;
  private final Clock clock;

  public WebhookDispatcher(WebhookSubscriptionStore store, SubscriptionDelivery delivery,
      ServerWideLocks locks, Clock clock) {
    this.store = store;
    this.delivery = delivery;
    this.locks = locks;
    this.clock = clock;
  }

  /** Delivers what is pending for every due subscription no other server is delivering. */
  public void deliverDue() {
    for (WebhookSubscription subscription : store.due(clock.instant())) {
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
      try {
        locks.runIfFree(lockName(subscription), () -> {
          delivery.deliver(subscription.orgId(), subscription.id());
          return true;
        });
      } catch (RuntimeException e) {
        LOG.warn("webhook delivery of subscription {} failed; the next round retries",
            subscription.id(), e);
      }
    }
  }

  static String lockName(WebhookSubscription subscription) {
    return "webhook subscription " + subscription.id();
  }
}
