package io.floe.adapters.rest;

import io.floe.application.port.in.ReadinessUseCase;
import io.javalin.config.RoutesConfig;

/** Liveness ({@code /health}: the process answers) and readiness ({@code /ready}: the database does). */
public final class HealthRoutes {
  private final ReadinessUseCase readiness;

  public HealthRoutes(ReadinessUseCase readiness) {
    this.readiness = readiness;
  }

  public void register(RoutesConfig routes) {
    routes.get("/health", ctx -> ctx.contentType("application/json").result("{\"status\":\"ok\"}"));
    routes.get("/ready", ctx -> {
      boolean ready = readiness.isReady();
      ctx.status(ready ? 200 : 503).contentType("application/json")
          .result(ready ? "{\"status\":\"ready\"}" : "{\"status\":\"database unreachable\"}");
    });
  }
}
