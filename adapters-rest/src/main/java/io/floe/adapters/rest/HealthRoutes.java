package io.floe.adapters.rest;

import io.floe.adapters.rest.http.RetryAfter;
import io.floe.adapters.rest.management.ManagementJson;
import io.floe.application.model.Readiness;
import io.floe.application.model.WorkerOutage;
import io.floe.application.port.in.ReadinessUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Liveness ({@code /health}: the process answers) and readiness ({@code /ready}: the database
 * answers and no background worker the server needs is down; a 503 names what is wrong). While a
 * worker is down, every request that may change something is refused at once with a 503 and a
 * {@code Retry-After} of when it runs again ({@link #refuseWritesWhileWorkersDown}).
 */
public final class HealthRoutes {
  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private final ReadinessUseCase readiness;

  public HealthRoutes(ReadinessUseCase readiness) {
    this.readiness = readiness;
  }

  public void register(RoutesConfig routes) {
    routes.get("/health", ctx -> ctx.contentType("application/json").result("{\"status\":\"ok\"}"));
    routes.get("/ready", ctx -> {
      Readiness now = readiness.readiness();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("status", now.ready() ? "ready" : "not ready");
      if (!now.ready()) {
        body.put("problems", now.problems());
      }
      ctx.status(now.ready() ? 200 : 503).contentType("application/json")
          .result(ManagementJson.write(body));
    });
  }

  /**
   * Before any route: a request that may change something, while a worker the server needs is
   * down, is refused without being tried (it would wait for the worker, or change what the
   * worker should have kept in step).
   */
  void refuseWritesWhileWorkersDown(Context ctx) {
    if (READS.contains(ctx.method().name())) {
      return;
    }
    List<WorkerOutage> down = readiness.workersDown();
    if (down.isEmpty()) {
      return;
    }
    Instant back = down.stream().map(WorkerOutage::retryAt).max(Instant::compareTo).orElseThrow();
    long seconds = Math.max(1, (Duration.between(Instant.now(), back).toMillis() + 999) / 1000);
    ctx.header(RetryAfter.HEADER, Long.toString(seconds));
    throw new ServiceUnavailableException("The server cannot take changes right now: background "
        + "worker %s is down; retry after %d s", down.get(0).worker(), seconds);
  }
}
