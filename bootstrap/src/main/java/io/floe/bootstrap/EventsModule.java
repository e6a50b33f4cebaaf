package io.floe.bootstrap;

import io.floe.adapters.rest.iceberg.EventRoutes;
import io.floe.adapters.rest.management.EventFeedRoutes;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.events.ReadChangeEventsUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.events.EventVisibility;
import io.floe.application.service.events.ReadChangeEventsService;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of change events: the feed (the audit log's rows, written by the one publisher in
 * each change's transaction), who may see which event, and the routes that serve it, on the
 * Iceberg REST events endpoint and in the management API.
 */
final class EventsModule {
  final ReadChangeEventsUseCase events;
  final EventVisibility visibility;

  EventsModule(Adapters adapters, ServerSettings settings, Clock clock, AccessPolicy policy) {
    this.visibility = new EventVisibility(adapters.namespaces(), policy);
    this.events = new ReadChangeEventsService(adapters.changeFeed(), visibility, clock,
        settings.eventRetention());
  }

  Consumer<RoutesConfig> icebergRoutes(AuthenticateUseCase authentication,
      ServerSettings settings) {
    return new EventRoutes(authentication, events, settings.metadataLimits());
  }

  Consumer<RoutesConfig> managementRoutes(AuthenticateUseCase authentication) {
    return new EventFeedRoutes(authentication, events);
  }
}
