package io.floe.bootstrap;

import io.floe.adapters.rest.management.AuditRoutes;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.audit.AuditLogService;
import io.floe.application.service.change.ChangePublisher;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of the audit log: the one publisher every change goes through (it writes the
 * change, its audit entry and its idempotency record in one transaction), and reading the log.
 */
final class AuditModule {
  final ChangePublisher publisher;
  private final Adapters adapters;

  AuditModule(Adapters adapters, ServerSettings settings, Clock clock) {
    this.adapters = adapters;
    this.publisher = new ChangePublisher(adapters.idempotency(), adapters.auditLog(),
        adapters.resultCodec(), adapters.database(), clock, settings.idempotencyLifetime());
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication, AccessPolicy policy) {
    return new AuditRoutes(authentication, new AuditLogService(adapters.auditLog(), policy));
  }
}
