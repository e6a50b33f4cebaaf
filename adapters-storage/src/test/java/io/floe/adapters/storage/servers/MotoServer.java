package io.floe.adapters.storage.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** moto in server mode: S3 and STS (and the rest of AWS) on one loopback port. */
public final class MotoServer implements AutoCloseable {
  /** moto accepts any key pair; these only have to be signed with consistently. */
  public static final String ACCESS_KEY = "moto-test-access";
  public static final String SECRET_KEY = "moto-test-secret";

  private final PythonServer server;

  public MotoServer() {
    server = PythonServer.start("moto.server, flask", "moto.server", "-H", "127.0.0.1", "-p",
        "{port}");
  }

  public String endpoint() {
    return server.endpoint();
  }

  /** Everything moto holds, as its own inspection API reports it: what it was really sent. */
  public JsonNode state() {
    try {
      HttpResponse<String> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(endpoint() + "/moto-api/data.json")).build(),
          HttpResponse.BodyHandlers.ofString());
      return new ObjectMapper().readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("could not read moto's state", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
