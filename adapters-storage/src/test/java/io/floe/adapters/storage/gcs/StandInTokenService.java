package io.floe.adapters.storage.gcs;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for Google's Security Token Service on loopback, which no emulator provides: it
 * answers token exchanges with numbered tokens and keeps every form it was sent, so a test can
 * read the access boundary Floe asked for.
 */
final class StandInTokenService implements AutoCloseable {
  static final long EXPIRES_IN_SECONDS = 3599;

  private final HttpServer server;
  final List<Map<String, String>> exchanges = new CopyOnWriteArrayList<>();

  StandInTokenService() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/token", exchange -> {
      try (exchange) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : new String(exchange.getRequestBody().readAllBytes(),
            StandardCharsets.UTF_8).split("&")) {
          int eq = pair.indexOf('=');
          form.put(pair.substring(0, eq),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        exchanges.add(form);
        byte[] body = ("{\"access_token\":\"downscoped-" + exchanges.size() + "\","
            + "\"issued_token_type\":\"urn:ietf:params:oauth:token-type:access_token\","
            + "\"token_type\":\"Bearer\",\"expires_in\":" + EXPIRES_IN_SECONDS + "}")
            .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/token");
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
