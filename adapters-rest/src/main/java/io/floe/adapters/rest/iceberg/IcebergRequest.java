package io.floe.adapters.rest.iceberg;

import io.floe.adapters.rest.http.RequestInput;
import io.floe.adapters.rest.http.RequestTracing;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.model.IdempotencyKey;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.javalin.http.Context;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTUtil;

/**
 * One Iceberg REST request: who is calling, in which org, about which namespace or table, and
 * how to answer. Path segments are decoded from the raw URI with Iceberg's own rules, so a name is
 * read exactly as Iceberg's clients encoded it.
 */
final class IcebergRequest {
  static final String IDEMPOTENCY_KEY = RESTUtil.IDEMPOTENCY_KEY_HEADER;
  private static final int PREFIX = 3;
  private static final int NAMESPACE = 5;
  private static final int OBJECT = 7;
  /** The segment after {@code plan} in a table's plan routes. */
  private static final int PLAN_ID = 9;

  private final Context ctx;
  private final String[] segments;
  private final AuthenticateUseCase authentication;
  private final MetadataLimits limits;
  private OrgContext scope;

  IcebergRequest(Context ctx, AuthenticateUseCase authentication, MetadataLimits limits) {
    this.ctx = ctx;
    this.segments = ctx.req().getRequestURI().split("/", -1);
    this.authentication = authentication;
    this.limits = limits;
  }

  Context http() {
    return ctx;
  }

  /**
   * The caller inside the org named by the route's prefix, acting for this request: with its
   * {@code Idempotency-Key}, bound to the method, route and body it came with.
   */
  OrgContext scope() {
    if (scope == null) {
      Caller caller = authentication.authenticate(bearerToken(ctx));
      RequestTracing.authenticated(ctx, caller);
      scope = authentication.enterOrg(caller, RESTUtil.decodeString(segment(PREFIX)))
          .on(requestInfo());
    }
    return scope;
  }

  Namespace namespace() {
    return RESTUtil.decodeNamespace(segment(NAMESPACE));
  }

  TableIdentifier object() {
    return TableIdentifier.of(namespace(), RESTUtil.decodeString(segment(OBJECT)));
  }

  /** The plan id of a table's plan route, decoded as Iceberg's clients encode it. */
  String planId() {
    return RESTUtil.decodeString(segment(PLAN_ID));
  }

  /** The body, which is read once the caller is known (a stranger's is never waited for). */
  String body() {
    scope();
    return RequestInput.body(ctx);
  }

  /** The body read as an Iceberg request, its schemas within the server's limits. */
  <T extends RESTRequest> T read(Class<T> type) {
    return RestJson.read(body(), type, limits);
  }

  Integer pageSize() {
    String raw = ctx.queryParam("pageSize");
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    try {
      return Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new BadRequestException("Invalid pageSize: %s", raw);
    }
  }

  String pageToken() {
    return ctx.queryParam("pageToken");
  }

  /** Answers 200 with the body in Iceberg's JSON. */
  void ok(Object body) {
    ctx.status(200).contentType("application/json").result(RestJson.write(body));
  }

  /**
   * Answers 200 with a body already in Iceberg's JSON, streamed. (No Content-Length of its own:
   * the server may compress what it streams.)
   */
  void ok(InputStream json) {
    ctx.status(200).contentType("application/json").result(json);
  }

  /** Answers 200 with a JSON body whose Content-Encoding the caller has set. */
  void okEncoded(byte[] body) {
    ctx.status(200).contentType("application/json").result(body);
  }

  void noContent() {
    ctx.status(204);
  }

  static String bearerToken(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null) {
      return null;
    }
    String[] parts = header.strip().split("\\s+", 2);
    return parts.length == 2 && parts[0].equalsIgnoreCase("Bearer") ? parts[1] : null;
  }

  private RequestInfo requestInfo() {
    String key = ctx.header(IDEMPOTENCY_KEY);
    Optional<IdempotencyKey> idempotency = key == null ? Optional.empty()
        : Optional.of(new IdempotencyKey(key, ctx.method() + " " + ctx.req().getRequestURI()
            + " " + sha256(RequestInput.bodyBytes(ctx))));
    return new RequestInfo(RequestTracing.id(ctx), idempotency);
  }

  private static String sha256(byte[] body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private String segment(int index) {
    if (index >= segments.length || segments[index].isEmpty()) {
      throw new BadRequestException("Malformed request path: %s", ctx.req().getRequestURI());
    }
    return segments[index];
  }
}
