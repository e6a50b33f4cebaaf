package io.floe.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Raw Iceberg REST calls under one org's prefix with one token, answering status and body. */
final class IcebergHttp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  record Reply(int status, JsonNode body) {
    String errorType() {
      return body.path("error").path("type").asText();
    }

    String message() {
      return body.path("error").path("message").asText();
    }

    /** A management API reply, for checks that treat both APIs alike. */
    static Reply of(ManagementApi.Reply reply) {
      return new Reply(reply.status(), reply.body());
    }
  }

  private final String base;
  private final String token;

  IcebergHttp(TestFloe floe, TestFloe.Org caller) {
    this(floe.uri(), caller.warehouse(), caller.token());
  }

  /** The catalog at {@code catalogUri} (a server's {@code .../iceberg}), for a warehouse. */
  IcebergHttp(String catalogUri, String warehouse, String token) {
    this.base = catalogUri + "/v1/" + warehouse;
    this.token = token;
  }

  Reply get(String path) {
    return send(request(path).GET());
  }

  Reply post(String path, String body) {
    return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** A POST with an {@code Idempotency-Key}. */
  Reply post(String path, String body, String idempotencyKey) {
    return send(request(path).header("Idempotency-Key", idempotencyKey)
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  Reply delete(String path) {
    return send(request(path).DELETE());
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json");
    return token == null ? builder : builder.header("Authorization", "Bearer " + token);
  }

  private static Reply send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response = HTTP.send(request.build(),
          HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body().isEmpty()
          ? JSON.missingNode() : JSON.readTree(response.body()));
    } catch (IOException e) {
      throw new AssertionError("request failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
