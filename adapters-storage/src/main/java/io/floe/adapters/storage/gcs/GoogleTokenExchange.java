package io.floe.adapters.storage.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.port.out.StorageException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Google's Security Token Service exchange (RFC 8693) that turns an access token into a
 * downscoped one under a Credential Access Boundary.
 */
final class GoogleTokenExchange {
  static final URI GOOGLE_STS = URI.create("https://sts.googleapis.com/v1/token");
  private static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  private static final String ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
  private static final ObjectMapper JSON = new ObjectMapper();

  record Token(String value, Optional<Instant> expiresAt) {}

  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();
  private final URI endpoint;

  GoogleTokenExchange(URI endpoint) {
    this.endpoint = endpoint;
  }

  Token downscope(String sourceToken, String accessBoundaryJson) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", TOKEN_EXCHANGE);
    form.put("subject_token_type", ACCESS_TOKEN);
    form.put("requested_token_type", ACCESS_TOKEN);
    form.put("subject_token", sourceToken);
    form.put("options", accessBoundaryJson);
    String body = form.entrySet().stream()
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint)
          .timeout(Duration.ofSeconds(30))
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new StorageException("the token exchange at " + endpoint + " answered "
            + response.statusCode() + ": " + response.body());
      }
      JsonNode token = JSON.readTree(response.body());
      Optional<Instant> expiresAt = token.hasNonNull("expires_in")
          ? Optional.of(Instant.now().plusSeconds(token.get("expires_in").asLong()))
          : Optional.empty();
      return new Token(token.path("access_token").asText(), expiresAt);
    } catch (IOException e) {
      throw new StorageException("the token exchange at " + endpoint + " failed: "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted during a token exchange", e);
    }
  }
}
