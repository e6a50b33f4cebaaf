package io.floe.application.service.webhooks;

import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.ServerWideLocks;
import io.floe.application.port.out.WebhookSubscriptionStore;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which subscription this server's delivery workers deliver next, so that no receiver can stall
 * the others. Each subscription is one unit of work: queued once when it is due (never twice, and
 * never while one of this server's workers has it), delivered one turn at a time
 * ({@link SubscriptionDelivery}: in feed order, at most a turn's events) under its server-wide
 * lock, and queued again at once when more is pending. A failed attempt sets the
 * subscription's back-off, so it is not due again until then.
 *
 * <p>Queues are {@link FairQueue}s (round-robin across orgs), one per standing: <b>proven</b>
 * (its last turn on this server was acknowledged throughout, no attempt slower than
 * {@code slow}; before its first turn here, one that has delivered and has no failure in a row,
 * so that a restart does not demote every healthy receiver), <b>fresh</b> (no failure in a
 * row, not proven: new, or slow) and <b>failing</b>. Workers of the {@link Lane#PROVEN} lane
 * take proven subscriptions only; {@link Lane#ANY} workers take fresh ones first, then failing, then proven. A receiver that
 * never answers therefore holds one worker for one attempt timeout at a time: while it was
 * proven, one attempt (it is not proven after it); after that, only the workers of the other
 * lane, behind every fresh subscription. A proven subscription waits at most for a proven
 * worker, which is never inside a failing target's attempt, and a fresh one at most one attempt
 * timeout for a worker of the other lane.
 */
public final class DeliveryScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(DeliveryScheduler.class);

  /** Which subscriptions a worker takes. */
  public enum Lane { PROVEN, ANY }

  private enum Standing { PROVEN, FRESH, FAILING }

  /** A subscription as a unit of work. */
  record Unit(UUID orgId, UUID id) {}

  private final WebhookSubscriptionStore store;
  private final SubscriptionDelivery delivery;
  private final ServerWideLocks locks;
  private final Clock clock;
  private final Duration slow;
  private final Map<Standing, FairQueue<Unit>> queues = new EnumMap<>(Standing.class);
  /** Subscriptions queued or being delivered here: each is in one place at a time. */
  private final Set<UUID> taken = new HashSet<>();
  /** What the last turn here showed of each subscription: proven (true) or not. */
  private final Map<UUID, Boolean> proven = new HashMap<>();

  public DeliveryScheduler(WebhookSubscriptionStore store, SubscriptionDelivery delivery,
      ServerWideLocks locks, Clock clock, Duration slow) {
    this.store = store;
    this.delivery = delivery;
    this.locks = locks;
    this.clock = clock;
    this.slow = slow;
    for (Standing standing : Standing.values()) {
      queues.put(standing, new FairQueue<>());
    }
  }

  /** Queues every subscription that is due and not queued or being delivered here already. */
  public void queueDue() {
    List<WebhookSubscription> due = store.due(clock.instant());
    synchronized (this) {
      for (WebhookSubscription subscription : due) {
        if (taken.add(subscription.id())) {
          WebhookSubscription.State state = subscription.state();
          boolean healthy = proven.getOrDefault(subscription.id(),
              state.lastDeliveredAt().isPresent());
          Standing standing = state.consecutiveFailures() > 0 ? Standing.FAILING
              : healthy ? Standing.PROVEN : Standing.FRESH;
          queues.get(standing).add(subscription.orgId(),
              new Unit(subscription.orgId(), subscription.id()));
        }
      }
      notifyAll();
    }
  }

  /**
   * A delivery worker's loop: takes the next subscription of its lane, delivers one turn of it,
   * and so on until the thread is interrupted (the server stops). A turn's failure is logged and
   * the subscription is due again at its next round.
   */
  public void serve(Lane lane) throws InterruptedException {
    while (true) {
      Unit unit = take(lane);
      SubscriptionDelivery.Turn turn = SubscriptionDelivery.Turn.NONE;
      try {
        turn = locks.runIfFree(lockName(unit.id()),
            () -> delivery.deliver(unit.orgId(), unit.id())).orElse(turn);
      } catch (RuntimeException e) {
        LOG.warn("delivery of subscription {} failed; its next round retries", unit.id(), e);
      } finally {
        finished(unit, turn);
      }
      if (Thread.interrupted()) {
        throw new InterruptedException("the server is stopping");
      }
    }
  }

  /** Takes one unit of {@code lane} if one is queued, without waiting. */
  synchronized Optional<Unit> poll(Lane lane) {
    List<Standing> order = lane == Lane.PROVEN ? List.of(Standing.PROVEN)
        : List.of(Standing.FRESH, Standing.FAILING, Standing.PROVEN);
    for (Standing standing : order) {
      Optional<Unit> unit = queues.get(standing).poll();
      if (unit.isPresent()) {
        return unit;
      }
    }
    return Optional.empty();
  }

  private synchronized Unit take(Lane lane) throws InterruptedException {
    Optional<Unit> unit;
    while ((unit = poll(lane)).isEmpty()) {
      wait();
    }
    return unit.get();
  }

  /**
   * The turn of {@code unit} ended: its standing follows what the turn showed (a turn without an
   * attempt shows nothing), and it is queued again at once when more is pending.
   */
  synchronized void finished(Unit unit, SubscriptionDelivery.Turn turn) {
    if (turn.attempts() > 0) {
      proven.put(unit.id(), !turn.failed() && turn.slowest().compareTo(slow) <= 0);
    }
    if (turn.morePending()) {
      queues.get(proven.getOrDefault(unit.id(), false) ? Standing.PROVEN : Standing.FRESH)
          .add(unit.orgId(), unit);
      notifyAll();
    } else {
      taken.remove(unit.id());
    }
  }

  static String lockName(UUID subscription) {
    return "webhook subscription " + subscription;
  }
}
