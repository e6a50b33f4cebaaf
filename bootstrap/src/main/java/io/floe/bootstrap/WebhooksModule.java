package io.floe.bootstrap;

import io.floe.adapters.rest.management.SubscriptionRoutes;
import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.events.EventVisibility;
import io.floe.application.service.webhooks.CreateSubscriptionService;
import io.floe.application.service.webhooks.DeliveryScheduler;
import io.floe.application.service.webhooks.DeleteSubscriptionService;
import io.floe.application.service.webhooks.GetSubscriptionService;
import io.floe.application.service.webhooks.ListSubscriptionsService;
import io.floe.application.service.webhooks.ManagedSubscriptions;
import io.floe.application.service.webhooks.ResumeSubscriptionService;
import io.floe.application.service.webhooks.SubscriptionDelivery;
import io.floe.application.service.webhooks.WebhookTargets;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The wiring of subscriptions (webhooks and Kafka topics): managed in the management API, and
 * the delivery workers that push the change feed to them, one server per subscription at a
 * time: a poller that queues the subscriptions that are due, and a bounded pool of workers that
 * deliver them a turn at a time ({@link DeliveryScheduler}), half of them kept for subscriptions
 * whose receivers have proven healthy.
 */
final class WebhooksModule {
  private final Adapters adapters;
  private final ServerSettings settings;
  private final WebhookTargets targets;
  private final ManagedSubscriptions managed;
  private final CreateSubscriptionService create;
  private final ChangePublisher publisher;
  /** How many events one turn of a subscription delivers at most before the next one's turn. */
  static final int EVENTS_PER_TURN = 20;
  /** An attempt slower than this does not count towards a subscription's proven health. */
  static final Duration SLOW_ATTEMPT = Duration.ofSeconds(1);
  final DeliveryScheduler scheduler;

  WebhooksModule(Adapters adapters, ServerSettings settings, Clock clock, AccessPolicy policy,
      ChangePublisher publisher, EventVisibility visibility) {
    this.adapters = adapters;
    this.settings = settings;
    this.publisher = publisher;
    var store = adapters.webhookSubscriptions();
    this.targets = new WebhookTargets(adapters.network(), settings.webhooks().privateTargets());
    this.managed = new ManagedSubscriptions(store);
    this.create = new CreateSubscriptionService(store, targets, adapters.namespaces(), policy,
        publisher, adapters.ids(), clock);
    SubscriptionDelivery delivery = new SubscriptionDelivery(store, adapters.changeFeed(),
        visibility, adapters.orgs(), adapters.principals(), targets,
        adapters.deliveryChannel(), new WebhookDeliveryMetrics(adapters.metrics().registry()),
        settings.webhooks().retries(), clock, settings.eventRetention(), EVENTS_PER_TURN);
    this.scheduler = new DeliveryScheduler(store, delivery, adapters.locks(), clock,
        SLOW_ATTEMPT);
  }

  /**
   * The poller (a round every poll interval) and the delivery workers, each kept alive among the
   * server's workers; closing the result stops them all.
   */
  AutoCloseable start(Workers workers) {
    var interval = settings.webhooks().pollInterval();
    List<Worker> started = new ArrayList<>();
    int count = settings.webhooks().workers();
    for (int i = 0; i < count; i++) {
      // With one worker it takes everything; else the first half waits for proven receivers.
      DeliveryScheduler.Lane lane = i < count / 2 ? DeliveryScheduler.Lane.PROVEN
          : DeliveryScheduler.Lane.ANY;
      started.add(workers.start("floe-deliveries-" + (i + 1),
          () -> scheduler.serve(lane), () -> { }));
    }
    started.add(workers.every("floe-webhooks", interval, interval, scheduler::queueDue));
    return () -> {
      started.forEach(worker -> worker.close(Duration.ZERO)); // all told to stop at once
      started.forEach(Worker::close);
    };
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    var store = adapters.webhookSubscriptions();
    return new SubscriptionRoutes(authentication, create,
        new ListSubscriptionsService(store, managed), new GetSubscriptionService(store, managed),
        new DeleteSubscriptionService(store, managed, publisher),
        new ResumeSubscriptionService(store, managed, publisher));
  }
}
