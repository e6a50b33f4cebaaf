package io.floe.application.service.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.AuditAction;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.DeliveryChannel;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.port.out.WebhookMetrics;
import io.floe.application.port.out.inmemory.InMemoryServerWideLocks;
import io.floe.application.port.out.inmemory.InMemoryWebhookSubscriptionStore;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.events.EventVisibility;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Visibility;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery workers on the fakes: a receiver that never answers holds one worker for one
 * attempt and never delays a subscription whose receiver has answered quickly, then backs off
 * on the clock; each subscription's events go out in feed order, by one worker at a time, in
 * turns; a subscription another server delivers is left to it; orgs take turns.
 */
class DeliverySchedulerTest {
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final Testbed bed = new Testbed();
  private final InMemoryWebhookSubscriptionStore store =
      new InMemoryWebhookSubscriptionStore(FeedPosition.START);
  private final InMemoryServerWideLocks locks = new InMemoryServerWideLocks();
  /** Event ids each receiver (by its URL) got, in the order they came. */
  private final Map<URI, List<String>> received = new ConcurrentHashMap<>();
  private final Set<URI> hanging = ConcurrentHashMap.newKeySet();
  private final CountDownLatch answerHanging = new CountDownLatch(1);
  private final AtomicInteger insideHangingAttempts = new AtomicInteger();
  private final Set<URI> beingDelivered = ConcurrentHashMap.newKeySet();
  private final List<String> overlaps = Collections.synchronizedList(new ArrayList<>());
  private final List<Thread> threads = new ArrayList<>();

  /**
   * Hanging receivers stand in for one that never answers: the attempt ends when the test lets
   * it (as the channel's timeout would end it), as a failure, the clock moved by the timeout.
   */
  private final DeliveryChannel<SubscriptionTarget> channel = (target, password, message) -> {
    URI url = ((SubscriptionTarget.Webhook) target).url();
    if (!beingDelivered.add(url)) {
      overlaps.add(url.toString());
    }
    try {
      if (hanging.contains(url)) {
        insideHangingAttempts.incrementAndGet();
        try {
          answerHanging.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          insideHangingAttempts.decrementAndGet();
        }
        return DeliveryChannel.Outcome.failed(Optional.empty(),
            "the receiver did not answer in time");
      }
      received.computeIfAbsent(url, key -> Collections.synchronizedList(new ArrayList<>()))
          .add(message.id());
      return DeliveryChannel.Outcome.acknowledged(Optional.of(204));
    } finally {
      beingDelivered.remove(url);
    }
  };

  private DeliveryScheduler scheduler(int eventsPerTurn) {
    SubscriptionDelivery delivery = new SubscriptionDelivery(store, bed.store.changeFeed(),
        new EventVisibility(bed.store.namespaces(), bed.policy()), bed.store.orgs(),
        bed.store.principals(), new WebhookTargets(new StorageNetwork() {
          @Override
          public Reach reach(String host) {
            return Reach.PUBLIC;
          }

          @Override
          public List<URI> credentialServers(BucketConfig bucket) {
            return List.of();
          }
        }, false), channel, WebhookMetrics.NONE, RetryPolicy.DEFAULT, bed.clock,
        Duration.ofDays(7), eventsPerTurn);
    // Slow means slower than the attempt timeout here: these fakes answer at once.
    return new DeliveryScheduler(store, delivery, locks, bed.clock, ATTEMPT_TIMEOUT);
  }

  private void startWorker(DeliveryScheduler scheduler, DeliveryScheduler.Lane lane) {
    Thread thread = new Thread(() -> {
      try {
        scheduler.serve(lane);
      } catch (InterruptedException e) {
        // stopped
      }
    }, "test-delivery-" + threads.size());
    thread.setDaemon(true);
    threads.add(thread);
    thread.start();
  }

  @AfterEach
  void stopWorkers() throws InterruptedException {
    answerHanging.countDown();
    for (Thread thread : threads) {
      thread.interrupt();
      thread.join(PATIENCE.toMillis());
    }
  }

  private WebhookSubscription subscribe(String url) {
    return store.create(UUID.randomUUID(), bed.org.id(), bed.admin.caller().principal().id(),
        new SubscriptionTarget.Webhook(URI.create(url)), WebhookFilter.ALL,
        WebhookSignature.secret(new byte[32]), Optional.empty(), bed.clock.instant());
  }

  private String commit(String table) {
    bed.publisher().publish(bed.admin, CatalogChanges.of(AuditAction.TABLE_COMMIT,
        CatalogObject.Kind.TABLE, TableIdentifier.of("sales", table)), () -> {});
    List<String> all = allEventIds();
    return all.get(all.size() - 1);
  }

  private List<String> allEventIds() {
    return bed.store.changeFeed().after(bed.org.id(), FeedPosition.START,
        io.floe.application.model.ChangeFilter.ALL, Instant.EPOCH, 10_000).stream()
        .map(event -> event.eventId().toString()).toList();
  }

  private List<String> receivedBy(String url) {
    List<String> got = received.get(URI.create(url));
    return got == null ? List.of() : List.copyOf(got);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  private WebhookSubscription.State state(WebhookSubscription subscription) {
    return store.find(bed.org.id(), subscription.id()).orElseThrow().state();
  }

  @Test
  void aHundredHangingReceiversHoldOneWorkerAndNeverDelayAProvenOne() throws Exception {
    bed.namespace("sales", Visibility.PRIVATE);
    DeliveryScheduler scheduler = scheduler(20);
    startWorker(scheduler, DeliveryScheduler.Lane.PROVEN);
    startWorker(scheduler, DeliveryScheduler.Lane.ANY);
    String healthy = "https://healthy.example.com/hook";
    WebhookSubscription proven = subscribe(healthy);
    String first = commit("orders");
    scheduler.queueDue();
    await("the first event", () -> receivedBy(healthy).equals(List.of(first)));

    List<WebhookSubscription> hangers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String url = "https://hangs-" + i + ".example.com/hook";
      hanging.add(URI.create(url));
      hangers.add(subscribe(url));
    }
    String second = commit("orders");
    scheduler.queueDue();
    // The healthy receiver gets its event while a hanging attempt is still under way...
    await("the second event", () -> receivedBy(healthy).equals(List.of(first, second)));
    // ...and that attempt is the only one: the other 99 wait behind it, holding nothing.
    await("one hanging attempt", () -> insideHangingAttempts.get() == 1);
    String third = commit("orders");
    scheduler.queueDue();
    await("the third event", () -> receivedBy(healthy).size() == 3);
    assertThat(insideHangingAttempts.get()).isEqualTo(1);
    assertThat(answerHanging.getCount()).isEqualTo(1);

    // Each hanging attempt now ends as a failure: each subscription backs off on the clock.
    answerHanging.countDown();
    await("every hanging receiver tried once", () -> hangers.stream()
        .allMatch(hanger -> state(hanger).consecutiveFailures() == 1));
    assertThat(hangers).allSatisfy(hanger -> assertThat(state(hanger).nextAttemptAt())
        .contains(bed.clock.instant().plus(RetryPolicy.DEFAULT.backoff(1))));
    assertThat(store.due(bed.clock.instant())).extracting(WebhookSubscription::id)
        .containsExactly(proven.id());
    bed.clock.advance(RetryPolicy.DEFAULT.backoff(1));
    assertThat(store.due(bed.clock.instant())).hasSize(101);
    assertThat(receivedBy(healthy)).containsExactly(first, second, third);
    assertThat(overlaps).isEmpty();
  }

  @Test
  void eachSubscriptionGetsItsEventsInFeedOrderFromOneWorkerAtATimeInTurns() throws Exception {
    bed.namespace("sales", Visibility.PRIVATE);
    DeliveryScheduler scheduler = scheduler(7);
    for (int i = 0; i < 4; i++) {
      startWorker(scheduler, DeliveryScheduler.Lane.ANY);
    }
    List<String> urls = List.of("https://a.example.com/", "https://b.example.com/",
        "https://c.example.com/");
    urls.forEach(this::subscribe);
    for (int i = 0; i < 60; i++) {
      commit("t" + (i % 5));
    }
    // One poll: a subscription with more pending than a turn is queued again by its worker.
    scheduler.queueDue();

    List<String> feed = allEventIds();
    for (String url : urls) {
      await("every event at " + url, () -> receivedBy(url).size() == feed.size());
      assertThat(receivedBy(url)).containsExactlyElementsOf(feed);
    }
    assertThat(overlaps).isEmpty();
  }

  @Test
  void aSubscriptionAnotherServerDeliversIsLeftToItAndTakenUpOnceFree() throws Exception {
    bed.namespace("sales", Visibility.PRIVATE);
    DeliveryScheduler scheduler = scheduler(20);
    String url = "https://elsewhere.example.com/";
    WebhookSubscription subscription = subscribe(url);
    String event = commit("orders");
    String lock = DeliveryScheduler.lockName(subscription.id());
    locks.holdElsewhere(lock);

    scheduler.queueDue();
    DeliveryScheduler.Unit unit = scheduler.poll(DeliveryScheduler.Lane.ANY).orElseThrow();
    scheduler.finished(unit, locks.runIfFree(lock, () -> SubscriptionDelivery.Turn.NONE)
        .orElse(SubscriptionDelivery.Turn.NONE));
    assertThat(receivedBy(url)).isEmpty();

    locks.release(lock);
    startWorker(scheduler, DeliveryScheduler.Lane.ANY);
    scheduler.queueDue();
    await("the event", () -> receivedBy(url).equals(List.of(event)));
  }

  /**
   * Orgs take turns: one with many subscriptions queued does not go first with all of them;
   * fresh subscriptions go before failing ones, and one that has delivered is proven after a
   * restart.
   */
  @Test
  void orgsTakeTurnsAndFreshSubscriptionsGoBeforeFailingOnes() {
    FairQueue<String> queue = new FairQueue<>();
    UUID big = UUID.randomUUID();
    UUID small = UUID.randomUUID();
    for (int i = 0; i < 5; i++) {
      queue.add(big, "big-" + i);
    }
    queue.add(small, "small-0");
    List<String> order = new ArrayList<>();
    for (Optional<String> next = queue.poll(); next.isPresent(); next = queue.poll()) {
      order.add(next.get());
    }
    assertThat(order).containsExactly("big-0", "small-0", "big-1", "big-2", "big-3", "big-4");

    bed.namespace("sales", Visibility.PRIVATE);
    DeliveryScheduler scheduler = scheduler(20);
    WebhookSubscription failing = subscribe("https://failing.example.com/");
    store.failed(failing.id(), 1, bed.clock.instant(), Optional.empty(),
        new io.floe.application.model.DeliveryAttempt(UUID.randomUUID(), bed.clock.instant(), 1,
            Optional.of(500), Duration.ZERO, Optional.of("500"), false));
    WebhookSubscription fresh = subscribe("https://fresh.example.com/");
    scheduler.queueDue();
    assertThat(scheduler.poll(DeliveryScheduler.Lane.PROVEN)).isEmpty();
    assertThat(scheduler.poll(DeliveryScheduler.Lane.ANY).orElseThrow().id())
        .isEqualTo(fresh.id());
    assertThat(scheduler.poll(DeliveryScheduler.Lane.ANY).orElseThrow().id())
        .isEqualTo(failing.id());
    // Queued or being delivered here: never queued twice.
    scheduler.queueDue();
    assertThat(scheduler.poll(DeliveryScheduler.Lane.ANY)).isEmpty();

    // After a restart (a new scheduler), a subscription that has delivered, with no failure
    // since, is proven from its first turn; the failing one is not.
    store.advance(fresh.id(), state(fresh).position(), Optional.of(
        new io.floe.application.model.DeliveryAttempt(UUID.randomUUID(), bed.clock.instant(), 1,
            Optional.of(204), Duration.ZERO, Optional.empty(), true)));
    DeliveryScheduler restarted = scheduler(20);
    restarted.queueDue();
    assertThat(restarted.poll(DeliveryScheduler.Lane.PROVEN).orElseThrow().id())
        .isEqualTo(fresh.id());
    assertThat(restarted.poll(DeliveryScheduler.Lane.PROVEN)).isEmpty();
    assertThat(restarted.poll(DeliveryScheduler.Lane.ANY).orElseThrow().id())
        .isEqualTo(failing.id());
  }
}
