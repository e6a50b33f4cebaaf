package io.floe.adapters.storage.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.RequestSigner;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequestParser;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.rest.responses.RemoteSignResponseParser;

/**
 * The catalog's sign route for one table, standing alone on a loopback port: it hands each
 * request to the signer under test with the table's location and the caller's access, and
 * answers a refusal with 403 as the REST catalog does.
 */
final class SignEndpoint implements AutoCloseable {
  static final String TOKEN = "engine-token";
  static final String PATH = "v1/org/namespaces/ns/tables/t/sign";

  private final HttpServer server;
  private final AtomicReference<Access> access = new AtomicReference<>(Access.READ_WRITE);
  final List<String> refusals = new CopyOnWriteArrayList<>();
  final List<RemoteSignRequest> signed = new CopyOnWriteArrayList<>();

  SignEndpoint(RequestSigner signer, BucketConfig bucket, StoragePath table) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/catalog/" + PATH, exchange -> {
      try (exchange) {
        if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
          reply(exchange, 401, error(401, "NotAuthorizedException", "no token"));
          return;
        }
        RemoteSignRequest request = RemoteSignRequestParser.fromJson(
            new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        try {
          String response = RemoteSignResponseParser.toJson(
              signer.sign(bucket, table, access.get(), request));
          signed.add(request);
          reply(exchange, 200, response);
        } catch (ForbiddenException e) {
          refusals.add(request.method() + " " + request.uri() + ": " + e.getMessage());
          reply(exchange, 403, error(403, "ForbiddenException", e.getMessage()));
        }
      }
    });
    server.start();
  }

  void access(Access value) {
    access.set(value);
  }

  String catalogUri() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/catalog";
  }

  private static String error(int code, String type, String message) {
    return ErrorResponseParser.toJson(ErrorResponse.builder().responseCode(code).withType(type)
        .withMessage(message).build());
  }

  private static void reply(HttpExchange exchange, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
