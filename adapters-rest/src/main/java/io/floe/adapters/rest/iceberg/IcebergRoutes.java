package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.iceberg.IcebergPaths.NAMESPACE;
import static io.floe.adapters.rest.iceberg.IcebergPaths.V1;

import io.floe.adapters.rest.http.RequestTracing;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.namespace.IcebergNamespacesUseCase;
import io.floe.application.security.OrgContext;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * The Iceberg REST catalog under {@code /iceberg}: {@code warehouse} is the org's name, and so is
 * the {@code prefix} of every other route. This class serves the config and namespace routes and
 * registers the table and view routes; handlers only translate between HTTP and use cases.
 */
public final class IcebergRoutes {
  public static final String ROOT = IcebergPaths.ROOT;

  /** Every route this server implements, as the config endpoint advertises them. */
  static final List<Endpoint> ENDPOINTS = List.of(
      Endpoint.V1_LIST_NAMESPACES, Endpoint.V1_LOAD_NAMESPACE, Endpoint.V1_NAMESPACE_EXISTS,
      Endpoint.V1_CREATE_NAMESPACE, Endpoint.V1_UPDATE_NAMESPACE, Endpoint.V1_DELETE_NAMESPACE,
      Endpoint.V1_COMMIT_TRANSACTION, Endpoint.V1_LIST_TABLES, Endpoint.V1_LOAD_TABLE,
      Endpoint.V1_TABLE_EXISTS, Endpoint.V1_CREATE_TABLE, Endpoint.V1_UPDATE_TABLE,
      Endpoint.V1_DELETE_TABLE, Endpoint.V1_RENAME_TABLE, Endpoint.V1_REGISTER_TABLE,
      Endpoint.V1_REPORT_METRICS, Endpoint.V1_TABLE_CREDENTIALS, Endpoint.V1_TABLE_REMOTE_SIGN,
      Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN, Endpoint.V1_FETCH_TABLE_SCAN_PLAN,
      Endpoint.V1_CANCEL_TABLE_SCAN_PLAN, Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS,
      Endpoint.V1_LIST_VIEWS,
      Endpoint.V1_LOAD_VIEW, Endpoint.V1_VIEW_EXISTS, Endpoint.V1_CREATE_VIEW,
      Endpoint.V1_UPDATE_VIEW, Endpoint.V1_DELETE_VIEW, Endpoint.V1_RENAME_VIEW,
      Endpoint.V1_REGISTER_VIEW,
      // The events endpoint of the Iceberg REST proposal (apache/iceberg PR 12584).
      Endpoint.create("POST", "/v1/{prefix}/events"));

  private final AuthenticateUseCase authentication;
  private final IcebergNamespacesUseCase namespaces;
  private final TableRoutes tables;
  private final ViewRoutes views;
  private final Duration idempotencyLifetime;
  private final MetadataLimits limits;

  /** Routes whose request bodies hold schemas within {@code limits}. */
  public IcebergRoutes(AuthenticateUseCase authentication, IcebergNamespacesUseCase namespaces,
      TableUseCases tables, ViewUseCases views, Duration idempotencyLifetime,
      MetadataLimits limits) {
    this.authentication = authentication;
    this.namespaces = namespaces;
    this.tables = new TableRoutes(authentication, tables, limits);
    this.views = new ViewRoutes(authentication, views, limits);
    this.idempotencyLifetime = idempotencyLifetime;
    this.limits = limits;
  }

  public void register(RoutesConfig routes) {
    routes.get(ROOT + "/v1/config", this::config);
    routes.get(V1 + "/namespaces", handle(r -> r.ok(namespaces.list(r.scope(),
        namespaceQueryParam(r.http()), r.pageToken(), r.pageSize()))));
    routes.post(V1 + "/namespaces", handle(r -> r.ok(namespaces.create(r.scope(),
        r.read(CreateNamespaceRequest.class)))));
    routes.get(NAMESPACE, handle(r -> r.ok(namespaces.load(r.scope(), r.namespace()))));
    routes.head(NAMESPACE, handle(r -> {
      namespaces.load(r.scope(), r.namespace());
      r.noContent();
    }));
    routes.delete(NAMESPACE, handle(r -> {
      namespaces.drop(r.scope(), r.namespace());
      r.noContent();
    }));
    routes.post(NAMESPACE + "/properties", handle(r -> r.ok(namespaces.updateProperties(
        r.scope(), r.namespace(),
        r.read(UpdateNamespacePropertiesRequest.class)))));
    tables.register(routes);
    views.register(routes);
  }

  private void config(Context ctx) {
    String warehouse = ctx.queryParam("warehouse");
    var caller = authentication.authenticate(IcebergRequest.bearerToken(ctx));
    RequestTracing.authenticated(ctx, caller);
    if (warehouse == null || warehouse.isBlank()) {
      throw new BadRequestException(
          "The 'warehouse' parameter is required: it is the name of your org");
    }
    OrgContext scope = authentication.enterOrg(caller, warehouse);
    ConfigResponse response = ConfigResponse.builder()
        .withOverride("prefix", scope.org().name().value())
        .withOverride("warehouse", scope.org().name().value())
        .withEndpoints(ENDPOINTS)
        .withIdempotencyKeyLifetime(idempotencyLifetime.toString())
        .build();
    ctx.contentType("application/json").result(RestJson.write(response));
  }

  private static org.apache.iceberg.catalog.Namespace namespaceQueryParam(Context ctx) {
    String parent = ctx.queryParam("parent");
    return parent == null || parent.isEmpty()
        ? org.apache.iceberg.catalog.Namespace.empty()
        : RESTUtil.namespaceFromQueryParam(parent);
  }

  private Handler handle(Consumer<IcebergRequest> handler) {
    return IcebergPaths.handle(authentication, limits, handler);
  }
}
