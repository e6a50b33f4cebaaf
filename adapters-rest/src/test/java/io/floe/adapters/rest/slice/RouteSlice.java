package io.floe.adapters.rest.slice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.rest.FloeHttpServer;
import io.floe.adapters.rest.HealthRoutes;
import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.iceberg.TableUseCases;
import io.floe.adapters.rest.iceberg.ViewUseCases;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.model.Readiness;
import io.floe.application.model.WorkerOutage;
import io.floe.application.port.in.ReadinessUseCase;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.namespace.IcebergNamespacesUseCase;
import io.floe.application.port.in.storage.StorageAccessUseCase;
import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.port.in.table.CommitTransactionUseCase;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.in.table.DropTableUseCase;
import io.floe.application.port.in.table.ListTablesUseCase;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.table.PlanTableScanUseCase;
import io.floe.application.port.in.table.RegisterTableUseCase;
import io.floe.application.port.in.table.RenameTableUseCase;
import io.floe.application.port.in.table.ReportMetricsUseCase;
import io.floe.application.port.in.view.CreateViewUseCase;
import io.floe.application.port.in.view.DropViewUseCase;
import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.port.in.view.LoadViewUseCase;
import io.floe.application.port.in.view.RegisterViewUseCase;
import io.floe.application.port.in.view.RenameViewUseCase;
import io.floe.application.port.in.view.ReplaceViewUseCase;
import io.floe.adapters.rest.web.WebApp;
import io.floe.adapters.rest.web.WebUseCases;
import io.javalin.config.RoutesConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One route group on a real {@link FloeHttpServer} at 127.0.0.1 on a free port, in front of
 * in-memory use cases, and a real HTTP client to call it: the harness of every route slice test.
 * The server is the one production runs (request checks, error mapping, body limits), with the
 * health routes and the Iceberg routes always mounted; use cases a test does not give are
 * {@linkplain Calls#untouched untouched}. Callers authenticate with {@link FakeAuthentication}'s
 * tokens.
 *
 * <pre>{@code
 * Calls calls = new Calls();
 * try (RouteSlice slice = RouteSlice.with(calls)
 *     .routes(auth -> new OrgRoutes(auth, new FakeOrgs(calls))).start()) {
 *   assertThat(slice.get("/user/orgs", FakeAuthentication.MEMBER).status()).isEqualTo(200);
 * }
 * }</pre>
 */
public final class RouteSlice implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  private final FloeHttpServer server;
  private final Calls calls;

  private RouteSlice(FloeHttpServer server, Calls calls) {
    this.server = server.start("127.0.0.1", 0);
    this.calls = calls;
  }

  /** A slice whose use cases record their calls in {@code calls}. */
  public static Builder with(Calls calls) {
    return new Builder(calls);
  }

  /** What the slice is built of. */
  public static final class Builder {
    private final Calls calls;
    private final AuthenticateUseCase authentication;
    private IcebergNamespacesUseCase namespaces;
    private Optional<WebApp> web = Optional.empty();
    private TableUseCases tables;
    private ViewUseCases views;
    private final List<Function<AuthenticateUseCase, Consumer<RoutesConfig>>> groups =
        new ArrayList<>();

    private Builder(Calls calls) {
      this.calls = calls;
      this.authentication = new FakeAuthentication(calls);
      this.namespaces = calls.untouched(IcebergNamespacesUseCase.class);
      this.tables = new TableUseCases(calls.untouched(ListTablesUseCase.class),
          calls.untouched(CreateTableUseCase.class), calls.untouched(LoadTableUseCase.class),
          calls.untouched(CommitTableUseCase.class),
          calls.untouched(CommitTransactionUseCase.class),
          calls.untouched(DropTableUseCase.class), calls.untouched(RenameTableUseCase.class),
          calls.untouched(RegisterTableUseCase.class),
          calls.untouched(ReportMetricsUseCase.class),
          calls.untouched(StorageAccessUseCase.class),
          calls.untouched(PlanTableScanUseCase.class));
      this.views = new ViewUseCases(calls.untouched(ListViewsUseCase.class),
          calls.untouched(CreateViewUseCase.class), calls.untouched(LoadViewUseCase.class),
          calls.untouched(ReplaceViewUseCase.class), calls.untouched(DropViewUseCase.class),
          calls.untouched(RenameViewUseCase.class), calls.untouched(RegisterViewUseCase.class));
    }

    public Builder namespaces(IcebergNamespacesUseCase namespaces) {
      this.namespaces = namespaces;
      return this;
    }

    public Builder tables(TableUseCases tables) {
      this.tables = tables;
      return this;
    }

    public Builder views(ViewUseCases views) {
      this.views = views;
      return this;
    }

    /** The web app on these use cases, without an identity provider. */
    public Builder web(Function<AuthenticateUseCase, WebUseCases> useCases) {
      this.web = Optional.of(new WebApp(useCases.apply(authentication), Optional.empty()));
      return this;
    }

    /** A route group, built with the slice's authentication. */
    public Builder routes(Function<AuthenticateUseCase, Consumer<RoutesConfig>> group) {
      groups.add(group);
      return this;
    }

    public RouteSlice start() {
      List<Consumer<RoutesConfig>> more = groups.stream().map(g -> g.apply(authentication))
          .toList();
      ReadinessUseCase ready = new ReadinessUseCase() {
        @Override
        public Readiness readiness() {
          return new Readiness(List.of());
        }

        @Override
        public List<WorkerOutage> workersDown() {
          return List.of();
        }
      };
      return new RouteSlice(new FloeHttpServer(new HealthRoutes(ready),
          new IcebergRoutes(authentication, namespaces, tables, views, Duration.ofMinutes(30),
              MetadataLimits.DEFAULTS),
          more, web, (method, route, status, millis) -> {}), calls);
    }
  }

  /** An answer: status, headers and body as sent. */
  public record Answer(int status, Map<String, List<String>> headers, String body) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    public Optional<String> header(String name) {
      return headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(name))
          .flatMap(h -> h.getValue().stream()).findFirst();
    }

    /** The Iceberg error model's {@code error} object, checked to be complete. */
    public JsonNode icebergError() {
      JsonNode error = json().path("error");
      if (!error.path("message").isTextual() || !error.path("type").isTextual()
          || error.path("code").asInt() != status) {
        throw new AssertionError("not an Iceberg error of status " + status + ": " + body);
      }
      return error;
    }

    /** The management API's error body, {@code {"detail": "..."}}, checked to be exactly that. */
    public String detail() {
      JsonNode json = json();
      if (!json.path("detail").isTextual() || json.size() != 1 || status < 400) {
        throw new AssertionError("not a management API error: " + this);
      }
      return json.path("detail").asText();
    }

    @Override
    public String toString() {
      return status + " " + body;
    }
  }

  public int port() {
    return server.port();
  }

  public List<FloeHttpServer.Route> routes() {
    return server.routes();
  }

  public Calls calls() {
    return calls;
  }

  public Answer get(String path, String token) {
    return send("GET", path, token, null, Map.of());
  }

  public Answer head(String path, String token) {
    return send("HEAD", path, token, null, Map.of());
  }

  public Answer delete(String path, String token) {
    return send("DELETE", path, token, null, Map.of());
  }

  public Answer post(String path, String token, String body) {
    return send("POST", path, token, body, Map.of());
  }

  public Answer put(String path, String token, String body) {
    return send("PUT", path, token, body, Map.of());
  }

  public Answer patch(String path, String token, String body) {
    return send("PATCH", path, token, body, Map.of());
  }

  /** Any request; {@code token} null sends no Authorization header, {@code body} null none. */
  public Answer send(String method, String path, String token, String body,
      Map<String, String> headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    headers.forEach(request::setHeader);
    try {
      HttpResponse<String> response = CLIENT.send(request.build(),
          HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.headers().map(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A request written byte for byte on a socket, for what a well-behaved client refuses to send
   * (malformed escapes, raw control characters): {@code target} goes on the request line as is.
   */
  public Answer raw(String method, String target, String token) {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(30_000);
      String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
          + "Connection: close\r\n\r\n";
      socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return parse(socket.getInputStream().readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Answer parse(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    String[] lines = text.substring(0, end < 0 ? text.length() : end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, List<String>> headers = new LinkedHashMap<>();
    boolean chunked = false;
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      String name = lines[i].substring(0, colon).strip();
      String value = lines[i].substring(colon + 1).strip();
      headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
      chunked |= name.equalsIgnoreCase("Transfer-Encoding") && value.contains("chunked");
    }
    String body = end < 0 ? "" : text.substring(end + 4);
    return new Answer(status, headers, chunked ? unchunk(body) : body);
  }

  private static String unchunk(String body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 0;
    while (at < body.length()) {
      int lineEnd = body.indexOf("\r\n", at);
      int size = Integer.parseInt(body.substring(at, lineEnd).split(";")[0].strip(), 16);
      if (size == 0) {
        break;
      }
      out.writeBytes(body.substring(lineEnd + 2, lineEnd + 2 + size)
          .getBytes(StandardCharsets.UTF_8));
      at = lineEnd + 2 + size + 2;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** A body of {@code size} bytes of JSON whitespace around an empty object. */
  public static String oversized(int size) {
    return "{" + " ".repeat(Math.max(0, size - 2)) + "}";
  }

  @Override
  public void close() {
    server.close();
  }

}
