package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.iceberg.IcebergPaths.NAMESPACE;
import static io.floe.adapters.rest.iceberg.IcebergPaths.TABLE;
import static io.floe.adapters.rest.iceberg.IcebergPaths.V1;

import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.table.LoadTableUseCase.LoadedTable;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/** The Iceberg REST catalog's table routes. Handlers only translate between HTTP and use cases. */
final class TableRoutes {
  private final AuthenticateUseCase authentication;
  private final TableUseCases tables;
  private final MetadataLimits limits;

  TableRoutes(AuthenticateUseCase authentication, TableUseCases tables, MetadataLimits limits) {
    this.authentication = authentication;
    this.tables = tables;
    this.limits = limits;
  }

  void register(RoutesConfig routes) {
    routes.get(NAMESPACE + "/tables", handle(r -> r.ok(
        tables.list().listTables(r.scope(), r.namespace(), r.pageToken(), r.pageSize()))));
    routes.post(NAMESPACE + "/tables", handle(r -> r.ok(tables.create().createTable(r.scope(),
        r.namespace(), r.read(CreateTableRequest.class), delegation(r.http())))));
    routes.get(TABLE, handle(this::loadTable));
    routes.head(TABLE, handle(r -> {
      tables.load().currentMetadataLocation(r.scope(), r.object());
      r.noContent();
    }));
    routes.post(TABLE, handle(r -> r.ok(tables.commit().commitTable(r.scope(), r.object(),
        r.read(UpdateTableRequest.class)))));
    routes.delete(TABLE, handle(r -> {
      tables.drop().dropTable(r.scope(), r.object(),
          Boolean.parseBoolean(r.http().queryParam("purgeRequested")));
      r.noContent();
    }));
    routes.get(TABLE + "/credentials", handle(r -> r.ok(
        tables.storageAccess().credentials(r.scope(), r.object()))));
    routes.post(TABLE + "/sign", handle(r -> r.ok(tables.storageAccess().sign(r.scope(),
        r.object(), r.read(RemoteSignRequest.class)))));
    routes.post(TABLE + "/metrics", handle(r -> {
      tables.reportMetrics().reportMetrics(r.scope(), r.object(),
          r.read(ReportMetricsRequest.class));
      r.noContent();
    }));
    routes.post(TABLE + "/plan", handle(r -> r.ok(tables.planning().plan(r.scope(), r.object(),
        r.read(PlanTableScanRequest.class), delegation(r.http())))));
    routes.get(TABLE + "/plan/{plan-id}", handle(r -> r.ok(tables.planning().result(r.scope(),
        r.object(), r.planId()))));
    routes.delete(TABLE + "/plan/{plan-id}", handle(r -> {
      tables.planning().cancel(r.scope(), r.object(), r.planId());
      r.noContent();
    }));
    routes.post(TABLE + "/tasks", handle(r -> r.ok(tables.planning().fetchTasks(r.scope(),
        r.object(), r.read(FetchScanTasksRequest.class)))));
    routes.post(NAMESPACE + "/register", handle(r -> r.ok(tables.register().registerTable(
        r.scope(), r.namespace(), r.read(RegisterTableRequest.class)))));
    routes.post(V1 + "/tables/rename", handle(r -> {
      tables.rename().renameTable(r.scope(), r.read(RenameTableRequest.class));
      r.noContent();
    }));
    routes.post(V1 + "/transactions/commit", handle(r -> {
      tables.commitTransaction().commitTransaction(r.scope(),
          r.read(CommitTransactionRequest.class));
      r.noContent();
    }));
  }

  /**
   * loadTable with an ETag: a client that sends the ETag of the version it holds in
   * {@code If-None-Match} gets a 304 without a body when the table has not moved. As RFC 9110
   * (13.1.2) has it, {@code *} matches any current version, so it answers 304 whenever the table
   * exists; a missing table is a 404 either way.
   */
  private void loadTable(IcebergRequest request) {
    SnapshotMode mode = snapshotMode(request.http().queryParam(
        RESTCatalogProperties.SNAPSHOTS_QUERY_PARAMETER));
    String ifNoneMatch = request.http().header("If-None-Match");
    if (ifNoneMatch != null) {
      String current = etag(tables.load().currentMetadataLocation(request.scope(),
          request.object()), mode);
      if (matchesAny(ifNoneMatch, current)) {
        request.http().status(304).header("ETag", current);
        return;
      }
    }
    LoadedTable loaded = tables.load().loadTable(request.scope(), request.object(), mode,
        delegation(request.http()));
    String etag = etag(loaded.metadataLocation(), mode);
    if (loaded.metadataJson().length() >= GZIP_FROM_BYTES
        && AcceptEncoding.allowsGzip(request.http().header("Accept-Encoding"))) {
      // Another representation of the same version: a weak tag, as RFC 9110 (8.8.3) asks.
      request.http().header("ETag", "W/" + etag).header("Vary", "Accept-Encoding")
          .header("Content-Encoding", "gzip");
      request.okEncoded(LoadTableBodies.gzipped(loaded));
      return;
    }
    request.http().header("ETag", etag);
    LoadTableBodies.Body body = LoadTableBodies.body(loaded);
    request.ok(body.stream());
  }

  /**
   * Table metadata from this size on goes out compressed to clients that accept gzip (Iceberg's
   * Java client and PyIceberg do): a long history is megabytes of JSON that shrink tenfold.
   */
  static final int GZIP_FROM_BYTES = 16 * 1024;

  /**
   * Whether an {@code If-None-Match} list names {@code etag}: {@code *}, or any entity tag in it
   * compared weakly ({@code W/"x"} matches {@code "x"}), as RFC 9110 says for this header.
   */
  static boolean matchesAny(String ifNoneMatch, String etag) {
    for (String tag : ifNoneMatch.split(",")) {
      String candidate = tag.strip();
      if (candidate.startsWith("W/")) {
        candidate = candidate.substring(2);
      }
      if (candidate.equals("*") || candidate.equals(etag)) {
        return true;
      }
    }
    return false;
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
  private static Set<AccessDelegation> delegation(Context ctx) {
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

  private Handler handle(Consumer<IcebergRequest> handler) {
    return IcebergPaths.handle(authentication, limits, handler);
  }
}
