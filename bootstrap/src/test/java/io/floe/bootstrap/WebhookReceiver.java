package io.floe.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver on 127.0.0.1 (the JDK's HTTP server): it keeps every request it gets and
 * answers 204, or 500 to the first {@link #failNext} requests, or to all while
 * {@link #failAll} says so.
 */
final class WebhookReceiver implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One request as it arrived, and what it was answered. */
  record Request(String id, String timestamp, String signature, String contentType, byte[] body,
      int answered) {
    JsonNode event() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private final HttpServer server;
  private final List<Request> requests = new ArrayList<>();
  private final AtomicInteger failNext = new AtomicInteger();
  private volatile boolean failAll;

  WebhookReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/hook", exchange -> {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      int status = failAll || failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 500 : 204;
      var headers = exchange.getRequestHeaders();
      synchronized (requests) {
        requests.add(new Request(headers.getFirst("webhook-id"),
            headers.getFirst("webhook-timestamp"), headers.getFirst("webhook-signature"),
            headers.getFirst("Content-Type"), body, status));
      }
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  void failNext(int count) {
    failNext.set(count);
  }

  void failAll(boolean failing) {
    failAll = failing;
  }

  List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The requests it acknowledged, in the order they came. */
  List<Request> acknowledged() {
    return requests().stream().filter(request -> request.answered() < 300).toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
