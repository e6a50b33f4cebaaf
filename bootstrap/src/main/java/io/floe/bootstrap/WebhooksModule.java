package io.floe.bootstrap;

import io.floe.adapters.rest.management.SubscriptionRoutes;
import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.events.EventVisibility;
import io.floe.application.service.webhooks.CreateSubscriptionService;
import io.floe.application.service.webhooks.DeleteSubscriptionService;
import io.floe.application.service.webhooks.GetSubscriptionService;
import io.floe.application.service.webhooks.ListSubscriptionsService;
import io.floe.application.service.webhooks.ManagedSubscriptions;
import io.floe.application.service.webhooks.ResumeSubscriptionService;
import io.floe.application.service.webhooks.SubscriptionDelivery;
import io.floe.application.service.webhooks.WebhookDispatcher;
import io.floe.application.service.webhooks.WebhookTargets;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of subscriptions (webhooks and Kafka topics): managed in the management API, and
 * the delivery worker that pushes the change feed to them, one server per subscription at a
 * time.
 */
final class WebhooksModule {
  private final Adapters adapters;
  private final ServerSettings settings;
  private final WebhookTargets targets;
  private final ManagedSubscriptions managed;
  private final CreateSubscriptionService create;
  private final ChangePublisher publisher;
  final WebhookDispatcher dispatcher;

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
        visibility, adapters.orgs(), adapters.principals(), targets, adapters.webhookSender(),
        adapters.kafkaPublisher(),
        new WebhookDeliveryMetrics(adapters.metrics().registry()),
        settings.webhooks().retries(), clock, settings.eventRetention());
    this.dispatcher = new WebhookDispatcher(store, delivery, adapters.locks(), clock);
  }

  /** The delivery loop: a round every poll interval, kept alive among the server's workers. */
  Worker start(Workers workers) {
    var interval = settings.webhooks().pollInterval();
    return workers.every("floe-webhooks", interval, interval, dispatcher::deliverDue);
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    var store = adapters.webhookSubscriptions();
    return new SubscriptionRoutes(authentication, create,
        new ListSubscriptionsService(store, managed), new GetSubscriptionService(store, managed),
        new DeleteSubscriptionService(store, managed, publisher),
        new ResumeSubscriptionService(store, managed, publisher));
  }
}
