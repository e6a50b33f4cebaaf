package io.floe.adapters.rest.management;

import io.floe.application.model.Invalid;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.maintenance.ListMaintenanceJobsUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code GET /orgs/{org}/iceberg/namespaces/{name}/tables/{table}/maintenance/jobs?limit=}: the
 * maintenance scheduler's jobs of one table, newest first, each with its steps, why it was
 * planned, its state and outcome ({@code last_error} and {@code due_at} show a failed attempt's
 * reason and when the next one runs). {@code limit} is 1 to 500 (default 50).
 */
public final class MaintenanceJobRoutes implements Consumer<RoutesConfig> {
  public static final String PATH = TableMaintenanceRoutes.PATH + "/jobs";

  private final AuthenticateUseCase authentication;
  private final ListMaintenanceJobsUseCase jobs;

  public MaintenanceJobRoutes(AuthenticateUseCase authentication,
      ListMaintenanceJobsUseCase jobs) {
    this.authentication = authentication;
    this.jobs = jobs;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get(PATH, (Context ctx) -> {
      ManagementRequest r = new ManagementRequest(ctx, authentication);
      var scope = r.scope();
      var table = TableMaintenanceRoutes.table(r);
      int limit = new QueryParams(ctx).integer("limit", ListMaintenanceJobsUseCase.DEFAULT_LIMIT);
      if (limit < 1 || limit > ListMaintenanceJobsUseCase.MAX_LIMIT) {
        throw Invalid.because("limit must be from 1 to " + ListMaintenanceJobsUseCase.MAX_LIMIT);
      }
      r.ok(Map.of("jobs", jobs.jobs(scope, table, limit).stream()
          .map(MaintenanceJobRoutes::json).toList()));
    });
  }

  private static Map<String, Object> json(MaintenanceJob job) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", job.id());
    json.put("table", job.namespace() + "." + job.name());
    json.put("steps", job.steps().stream().sorted().map(MaintenanceJob.Step::wire).toList());
    json.put("reason", job.reason());
    json.put("executor", job.executor());
    json.put("state", job.state().wire());
    json.put("attempts", job.attempts());
    json.put("created_at", job.createdAt().toString());
    json.put("due_at", job.dueAt().toString());
    json.put("replica", job.leaseOwner().orElse(null));
    json.put("lease_expires_at", job.leaseExpiresAt().map(Object::toString).orElse(null));
    json.put("started_at", job.startedAt().map(Object::toString).orElse(null));
    json.put("finished_at", job.finishedAt().map(Object::toString).orElse(null));
    json.put("outcome", job.outcome().orElse(null));
    json.put("last_error", job.lastError().orElse(null));
    return json;
  }
}
