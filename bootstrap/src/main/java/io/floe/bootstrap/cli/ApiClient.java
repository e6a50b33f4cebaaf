package io.floe.bootstrap.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A small client of Floe's management API for the command line: JSON in and out, and a failed
 * request turned into an exception whose message is the server's own explanation.
 */
public final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();
  private final String baseUrl;
  private final String token;

  ApiClient(String baseUrl, String token) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.token = token;
  }

  /** One path segment, escaped so that a name cannot change the path. */
  public static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  public static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  public JsonNode get(String path) {
    return send("GET", path, HttpRequest.BodyPublishers.noBody());
  }

  public JsonNode delete(String path) {
    return send("DELETE", path, HttpRequest.BodyPublishers.noBody());
  }

  public JsonNode post(String path, Object body) {
    try {
      return send("POST", path, HttpRequest.BodyPublishers.ofString(
          JSON.writeValueAsString(body)));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode the request body", e);
    }
  }

  public JsonNode patch(String path, Object body) {
    try {
      return send("PATCH", path, HttpRequest.BodyPublishers.ofString(
          JSON.writeValueAsString(body)));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode the request body", e);
    }
  }

  private JsonNode send(String method, String path, HttpRequest.BodyPublisher body) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(TIMEOUT)
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .method(method, body)
        .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new ApiException("cannot reach Floe at " + baseUrl + " (is 'floe serve' running?)");
    } catch (IOException e) {
      throw new ApiException(method + " " + path + " failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException("interrupted");
    }
    JsonNode json = parse(response.body());
    if (response.statusCode() >= 400) {
      String detail = json.path("detail").asText(json.path("error").path("message").asText(""));
      throw new ApiException(response.statusCode() + ": "
          + (detail.isEmpty() ? response.body() : detail));
    }
    return json;
  }

  private static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return JSON.missingNode();
    }
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      return JSON.getNodeFactory().textNode(body);
    }
  }

  /** The server refused or could not be reached; the message says why. */
  public static final class ApiException extends RuntimeException {
    ApiException(String message) {
      super(message);
    }
  }
}
