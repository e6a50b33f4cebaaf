package io.floe.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Plain HTTP calls to a test server's management API with an org admin's token. */
final class ManagementApi {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A response: its status, its JSON body (a missing node when there was none), its id. */
  record Reply(int status, JsonNode body, String requestId) {
    String detail() {
      return body.path("detail").asText();
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();
  private final String baseUri;
  private final String token;

  ManagementApi(int port, String token) {
    this.baseUri = "http://127.0.0.1:" + port;
    this.token = token;
  }

  Reply get(String path) {
    return send(request(path).GET());
  }

  Reply delete(String path) {
    return send(request(path).DELETE());
  }

  Reply post(String path, Object body) {
    try {
      return send(request(path).POST(HttpRequest.BodyPublishers.ofString(
          JSON.writeValueAsString(body))));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  Reply put(String path, Object body) {
    try {
      return send(request(path).PUT(HttpRequest.BodyPublishers.ofString(
          JSON.writeValueAsString(body))));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  Reply patch(String path, Object body) {
    try {
      return send(request(path).method("PATCH", HttpRequest.BodyPublishers.ofString(
          JSON.writeValueAsString(body))));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(baseUri + path))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json");
  }

  private Reply send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response = http.send(request.build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode body = response.body().isEmpty()
          ? JSON.missingNode() : JSON.readTree(response.body());
      return new Reply(response.statusCode(), body,
          response.headers().firstValue("X-Request-Id").orElse(null));
    } catch (IOException e) {
      throw new AssertionError("request failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
