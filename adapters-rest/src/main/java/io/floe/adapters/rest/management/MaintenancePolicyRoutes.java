package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.maintenance.DeleteMaintenancePolicyUseCase;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.port.in.maintenance.SetMaintenancePolicyUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The maintenance policy of the org, a namespace or a table: {@code GET} answers the level's own
 * policy ({@code policy}, null when it sets none), the one that applies there
 * ({@code effective}) and where each of its fields comes from ({@code sources}); {@code PUT}
 * replaces the level's policy with the body's fields (each optional, null or absent meaning
 * "inherit"); {@code DELETE} removes it (404 when none was set).
 */
public final class MaintenancePolicyRoutes implements Consumer<RoutesConfig> {
  public static final String ORG_POLICY = "/orgs/{org}/maintenance-policy";
  public static final String NAMESPACE_POLICY =
      "/orgs/{org}/iceberg/namespaces/{name}/maintenance-policy";
  public static final String TABLE_POLICY =
      "/orgs/{org}/iceberg/namespaces/{name}/tables/{table}/maintenance-policy";

  private final AuthenticateUseCase authentication;
  private final SetMaintenancePolicyUseCase set;
  private final GetMaintenancePolicyUseCase get;
  private final DeleteMaintenancePolicyUseCase delete;

  public MaintenancePolicyRoutes(AuthenticateUseCase authentication,
      SetMaintenancePolicyUseCase set, GetMaintenancePolicyUseCase get,
      DeleteMaintenancePolicyUseCase delete) {
    this.authentication = authentication;
    this.set = set;
    this.get = get;
    this.delete = delete;
  }

  @Override
  public void accept(RoutesConfig routes) {
    register(routes, ORG_POLICY, r -> PolicyTarget.org());
    register(routes, NAMESPACE_POLICY, r -> PolicyTarget.namespace(namespace(r)));
    register(routes, TABLE_POLICY, r -> PolicyTarget.table(namespace(r),
        TableMaintenanceRoutes.tableName(r)));
  }

  private void register(RoutesConfig routes, String path,
      Function<ManagementRequest, PolicyTarget> target) {
    routes.get(path, handle(r -> {
      var scope = r.scope();
      r.ok(get.get(scope, target.apply(r)));
    }));
    routes.put(path, handle(r -> {
      var scope = r.scope();
      PolicyTarget where = target.apply(r);
      MaintenancePolicy policy = policy(new JsonFields(r.body(JsonNode.class)));
      r.ok(set.set(scope, where, policy));
    }));
    routes.delete(path, handle(r -> {
      var scope = r.scope();
      if (!delete.delete(scope, target.apply(r))) {
        throw new org.apache.iceberg.exceptions.NotFoundException(
            "No maintenance policy is set there");
      }
      r.respond(204, null);
    }));
  }

  static MaintenancePolicy policy(JsonFields body) {
    return new MaintenancePolicy(body.nonNegativeLong("snapshot_max_age_seconds").orElse(null),
        integer(body, "min_snapshots_to_keep"), body.nonNegativeLong("orphan_grace_seconds")
            .orElse(null), integer(body, "manifest_rewrite_threshold"),
        body.nonNegativeLong("compaction_target_file_size_bytes").orElse(null),
        integer(body, "compaction_min_input_files"), body.text("executor").orElse(null));
  }

  private static Integer integer(JsonFields body, String field) {
    return body.nonNegativeLong(field).map(value -> {
      if (value > Integer.MAX_VALUE) {
        throw Invalid.because(field + " is too large");
      }
      return value.intValue();
    }).orElse(null);
  }

  private static String namespace(ManagementRequest r) {
    return CreateNamespaceCommand.name(r.http().pathParam("name"), "namespace name").value();
  }

  private Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
