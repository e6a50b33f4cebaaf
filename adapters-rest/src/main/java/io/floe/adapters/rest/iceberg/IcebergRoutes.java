package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.iceberg.IcebergRequest.noContent;
import static io.floe.adapters.rest.iceberg.IcebergRequest.ok;

import io.floe.adapters.rest.RequestTracing;
import io.floe.application.port.in.AccessDelegation;
import io.floe.application.port.in.AuthenticateUseCase;
import io.floe.application.port.in.IcebergNamespacesUseCase;
import io.floe.application.port.in.IcebergTablesUseCase;
import io.floe.application.port.in.IcebergViewsUseCase;
import io.floe.application.port.in.IdempotentRequestsUseCase;
import io.floe.application.security.OrgContext;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * The Iceberg REST catalog under {@code /iceberg}: {@code warehouse} is the org's name, and so is
 * the {@code prefix} of every other route. Handlers only translate between HTTP and use cases.
 */
public final class IcebergRoutes {
  public static final String ROOT = "/iceberg";
  private static final String V1 = ROOT + "/v1/{prefix}";
  private static final String NAMESPACE = V1 + "/namespaces/{namespace}";
  private static final String TABLE = NAMESPACE + "/tables/{table}";
  private static final String VIEW = NAMESPACE + "/views/{view}";

  /** Every route this server implements, as the config endpoint advertises them. */
  static final List<Endpoint> ENDPOINTS = List.of(
      Endpoint.V1_LIST_NAMESPACES, Endpoint.V1_LOAD_NAMESPACE, Endpoint.V1_NAMESPACE_EXISTS,
      Endpoint.V1_CREATE_NAMESPACE, Endpoint.V1_UPDATE_NAMESPACE, Endpoint.V1_DELETE_NAMESPACE,
      Endpoint.V1_COMMIT_TRANSACTION, Endpoint.V1_LIST_TABLES, Endpoint.V1_LOAD_TABLE,
      Endpoint.V1_TABLE_EXISTS, Endpoint.V1_CREATE_TABLE, Endpoint.V1_UPDATE_TABLE,
      Endpoint.V1_DELETE_TABLE, Endpoint.V1_RENAME_TABLE, Endpoint.V1_REGISTER_TABLE,
      Endpoint.V1_REPORT_METRICS, Endpoint.V1_TABLE_CREDENTIALS, Endpoint.V1_TABLE_REMOTE_SIGN,
      Endpoint.V1_LIST_VIEWS,
      Endpoint.V1_LOAD_VIEW, Endpoint.V1_VIEW_EXISTS, Endpoint.V1_CREATE_VIEW,
      Endpoint.V1_UPDATE_VIEW, Endpoint.V1_DELETE_VIEW, Endpoint.V1_RENAME_VIEW,
      Endpoint.V1_REGISTER_VIEW);

  private final AuthenticateUseCase authentication;
  private final IcebergNamespacesUseCase namespaces;
  private final IcebergTablesUseCase tables;
  private final IcebergViewsUseCase views;
  private final IdempotentRequestsUseCase idempotency;
  private final Duration idempotencyLifetime;

  public IcebergRoutes(AuthenticateUseCase authentication, IcebergNamespacesUseCase namespaces,
      IcebergTablesUseCase tables, IcebergViewsUseCase views,
      IdempotentRequestsUseCase idempotency, Duration idempotencyLifetime) {
    this.authentication = authentication;
    this.namespaces = namespaces;
    this.tables = tables;
    this.views = views;
    this.idempotency = idempotency;
    this.idempotencyLifetime = idempotencyLifetime;
  }

  public void register(RoutesConfig routes) {
    routes.get(ROOT + "/v1/config", this::config);

    routes.get(V1 + "/namespaces", handle(r -> r.json(namespaces.list(r.scope(),
        namespaceQueryParam(r.http()), r.pageToken(), r.pageSize()))));
    routes.post(V1 + "/namespaces", handle(r -> r.mutate("createNamespace", () -> ok(
        namespaces.create(r.scope(), RestJson.read(r.body(), CreateNamespaceRequest.class))))));
    routes.get(NAMESPACE, handle(r -> r.json(namespaces.load(r.scope(), r.namespace()))));
    routes.head(NAMESPACE, handle(r -> {
      namespaces.load(r.scope(), r.namespace());
      r.respond(noContent());
    }));
    routes.delete(NAMESPACE, handle(r -> r.mutate("dropNamespace", () -> {
      namespaces.drop(r.scope(), r.namespace());
      return noContent();
    })));
    routes.post(NAMESPACE + "/properties", handle(r -> r.mutate("updateNamespace",
        () -> ok(namespaces.updateProperties(r.scope(), r.namespace(),
            RestJson.read(r.body(), UpdateNamespacePropertiesRequest.class))))));

    routes.get(NAMESPACE + "/tables", handle(r -> r.json(
        tables.list(r.scope(), r.namespace(), r.pageToken(), r.pageSize()))));
    routes.post(NAMESPACE + "/tables", handle(r -> r.mutate("createTable", () -> ok(
        tables.create(r.scope(), r.namespace(), RestJson.read(r.body(), CreateTableRequest.class),
            delegation(r.http()))))));
    routes.get(TABLE, handle(this::loadTable));
    routes.head(TABLE, handle(r -> {
      tables.currentMetadataLocation(r.scope(), r.object());
      r.respond(noContent());
    }));
    routes.post(TABLE, handle(r -> r.mutate("commitTable", () -> ok(tables.commit(r.scope(),
        r.object(), RestJson.read(r.body(), UpdateTableRequest.class))))));
    routes.delete(TABLE, handle(r -> r.mutate("dropTable", () -> {
      tables.drop(r.scope(), r.object(), Boolean.parseBoolean(r.http().queryParam("purgeRequested")));
      return noContent();
    })));
    routes.get(TABLE + "/credentials", handle(r -> r.json(
        tables.credentials(r.scope(), r.object()))));
    routes.post(TABLE + "/sign", handle(r -> r.json(tables.sign(r.scope(), r.object(),
        RestJson.read(r.body(), RemoteSignRequest.class)))));
    routes.post(TABLE + "/metrics", handle(r -> {
      tables.reportMetrics(r.scope(), r.object(),
          RestJson.read(r.body(), ReportMetricsRequest.class));
      r.respond(noContent());
    }));
    routes.post(NAMESPACE + "/register", handle(r -> r.mutate("registerTable", () -> ok(
        tables.register(r.scope(), r.namespace(),
            RestJson.read(r.body(), RegisterTableRequest.class))))));
    routes.post(V1 + "/tables/rename", handle(r -> r.mutate("renameTable", () -> {
      tables.rename(r.scope(), RestJson.read(r.body(), RenameTableRequest.class));
      return noContent();
    })));
    routes.post(V1 + "/transactions/commit", handle(r -> r.mutate("commitTransaction", () -> {
      tables.commitTransaction(r.scope(), RestJson.read(r.body(), CommitTransactionRequest.class));
      return noContent();
    })));

    routes.get(NAMESPACE + "/views", handle(r -> r.json(
        views.list(r.scope(), r.namespace(), r.pageToken(), r.pageSize()))));
    routes.post(NAMESPACE + "/views", handle(r -> r.mutate("createView", () -> ok(
        views.create(r.scope(), r.namespace(), RestJson.read(r.body(), CreateViewRequest.class))))));
    routes.get(VIEW, handle(r -> r.json(views.load(r.scope(), r.object()))));
    routes.head(VIEW, handle(r -> {
      views.load(r.scope(), r.object());
      r.respond(noContent());
    }));
    routes.post(VIEW, handle(r -> r.mutate("replaceView", () -> ok(views.replace(r.scope(),
        r.object(), RestJson.read(r.body(), UpdateTableRequest.class))))));
    routes.delete(VIEW, handle(r -> r.mutate("dropView", () -> {
      views.drop(r.scope(), r.object());
      return noContent();
    })));
    routes.post(NAMESPACE + "/register-view", handle(r -> r.mutate("registerView", () -> ok(
        views.register(r.scope(), r.namespace(),
            RestJson.read(r.body(), RegisterViewRequest.class))))));
    routes.post(V1 + "/views/rename", handle(r -> r.mutate("renameView", () -> {
      views.rename(r.scope(), RestJson.read(r.body(), RenameTableRequest.class));
      return noContent();
    })));
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

  /**
   * loadTable with an ETag: a client that sends the ETag of the version it holds in
   * {@code If-None-Match} gets a 304 without a body when the table has not moved.
   */
  private void loadTable(IcebergRequest request) {
    SnapshotMode mode = snapshotMode(request.http().queryParam(
        RESTCatalogProperties.SNAPSHOTS_QUERY_PARAMETER));
    String ifNoneMatch = request.http().header("If-None-Match");
    if (ifNoneMatch != null) {
      String current = tables.currentMetadataLocation(request.scope(), request.object());
      if (ifNoneMatch.equals(etag(current, mode))) {
        request.http().status(304).header("ETag", ifNoneMatch);
        return;
      }
    }
    IcebergTablesUseCase.LoadedTable loaded = tables.load(request.scope(), request.object(), mode,
        delegation(request.http()));
    request.http().header("ETag", etag(loaded.metadataLocation(), mode));
    request.json(loaded.response());
  }

  static String etag(String metadataLocation, SnapshotMode mode) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(
          (metadataLocation + "|" + mode).getBytes(StandardCharsets.UTF_8));
      return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The storage access an engine asks for; Floe answers what it can and ignores the rest. */
  private static java.util.Set<AccessDelegation> delegation(Context ctx) {
    return AccessDelegation.parse(ctx.header(AccessDelegation.HEADER));
  }

  private static SnapshotMode snapshotMode(String value) {
    if (value == null || value.isEmpty()) {
      return SnapshotMode.ALL;
    }
    try {
      return SnapshotMode.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid snapshots mode '%s': use 'all' or 'refs'", value);
    }
  }

  private static org.apache.iceberg.catalog.Namespace namespaceQueryParam(Context ctx) {
    String parent = ctx.queryParam("parent");
    return parent == null || parent.isEmpty()
        ? org.apache.iceberg.catalog.Namespace.empty()
        : org.apache.iceberg.rest.RESTUtil.namespaceFromQueryParam(parent);
  }

  private io.javalin.http.Handler handle(Consumer<IcebergRequest> handler) {
    return ctx -> handler.accept(new IcebergRequest(ctx, authentication, idempotency));
  }
}
