package io.floe.bootstrap.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * A small client of Floe's management API for the command line: JSON in and out, and a failed
 * request turned into an exception whose message is the server's own explanation.
 *
 * <p>Each command makes one request and exits, so what the transport costs to start matters more
 * than anything else about it: {@link HttpURLConnection} starts in a fraction of the time of
 * {@link HttpClient}, which is used only for PATCH, a method the former cannot send.
 */
public final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

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
    return send("GET", path, null);
  }

  public JsonNode delete(String path) {
    return send("DELETE", path, null);
  }

  public JsonNode post(String path, Object body) {
    return send("POST", path, encode(body));
  }

  public JsonNode put(String path, Object body) {
    return send("PUT", path, encode(body));
  }

  public JsonNode patch(String path, Object body) {
    return send("PATCH", path, encode(body));
  }

  private static String encode(Object body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode the request body", e);
    }
  }

  /** A response: its status and body. */
  private record Reply(int status, String body) {}

  private JsonNode send(String method, String path, String body) {
    URI uri = URI.create(baseUrl + path);
    Reply reply;
    try {
      reply = method.equals("PATCH") ? patch(uri, body) : exchange(method, uri, body);
    } catch (ConnectException e) {
      throw new ApiException("cannot reach Floe at " + baseUrl + " (is 'floe serve' running?)");
    } catch (IOException e) {
      throw new ApiException(method + " " + path + " failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException("interrupted");
    }
    JsonNode json = parse(reply.body());
    if (reply.status() >= 400) {
      String detail = json.path("detail").asText(json.path("error").path("message").asText(""));
      throw new ApiException(reply.status() + ": " + (detail.isEmpty() ? reply.body() : detail));
    }
    return json;
  }

  private Reply exchange(String method, URI uri, String body) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
    try {
      connection.setRequestMethod(method);
      connection.setInstanceFollowRedirects(false);
      connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
      connection.setReadTimeout((int) TIMEOUT.toMillis());
      connection.setRequestProperty("Authorization", "Bearer " + token);
      connection.setRequestProperty("Accept", "application/json");
      if (body != null) {
        connection.setRequestProperty("Content-Type", "application/json");
        connection.setDoOutput(true);
        try (OutputStream out = connection.getOutputStream()) {
          out.write(body.getBytes(StandardCharsets.UTF_8));
        }
      }
      int status = connection.getResponseCode();
      try (InputStream in = status >= 400 ? connection.getErrorStream()
          : connection.getInputStream()) {
        return new Reply(status, in == null ? ""
            : new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } finally {
      connection.disconnect();
    }
  }

  private Reply patch(URI uri, String body) throws IOException, InterruptedException {
    HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT);
    if (uri.getScheme().equalsIgnoreCase("http")) {
      // Plain HTTP (redirects are not followed) never uses TLS: a context without trusted
      // certificates spares loading the JDK's.
      client.sslContext(withoutTrust());
    }
    HttpRequest request = HttpRequest.newBuilder(uri)
        .timeout(TIMEOUT)
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .method("PATCH", HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> response = client.build().send(request,
        HttpResponse.BodyHandlers.ofString());
    return new Reply(response.statusCode(), response.body());
  }

  private static SSLContext withoutTrust() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[0], new TrustManager[0], null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS implementation", e);
    }
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
