package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that send their requests slowly, on purpose or not, cannot take the server's threads:
 * while dozens of connections trickle bodies, {@code /health} answers and a caller with a token is
 * served. Each test opens its connections on loopback, keeps them sending for a few seconds at
 * most, and closes them itself.
 */
class SlowClientsTest {
  /** More connections than the server has request threads for routes. */
  private static final int CONNECTIONS = 70;
  private static final Duration PATIENCE = Duration.ofSeconds(5);

  @TempDir
  static Path directory;
  private static TestFloe floe;
  private static TestFloe.Org org;

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory);
    org = floe.newOrg();
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @Test
  void tricklingBodiesWithoutATokenNeitherStopHealthNorACallerWithAToken() throws Exception {
    List<String> targets = List.of(
        "/iceberg/v1/" + org.warehouse() + "/namespaces",
        "/iceberg/v1/" + org.warehouse() + "/namespaces/any/tables/t",
        "/orgs/" + org.warehouse() + "/namespaces",
        "/ui/" + org.warehouse() + "/namespaces",
        "/no/such/route");
    try (Tricklers tricklers = Tricklers.open(floe.server().port(), CONNECTIONS, i ->
        head("POST", targets.get(i % targets.size()), 100_000, null), 1, Duration.ofMillis(200))) {
      // Real time on purpose: the tricklers must have held their connections a while.
      Thread.sleep(1_000);
      assertThat(status(get("/health", null))).isEqualTo(200);
      assertThat(status(post("/iceberg/v1/" + org.warehouse() + "/namespaces", org.token(),
          "{\"namespace\": [\"served_while_trickled_at\"]}"))).isEqualTo(200);
      // Each trickler was told promptly that it is not welcome, without its body being awaited.
      assertThat(tricklers.answers(PATIENCE)).allSatisfy(status ->
          assertThat(status).isBetween(300, 499));
    }
  }

  @Test
  void aBodySentTooSlowlyIsCutOffWith408() throws Exception {
    // Callers with a token, and sign-in forms (read before anyone is known).
    try (Tricklers tricklers = Tricklers.open(floe.server().port(), 8, i -> i % 2 == 0
        ? head("POST", "/iceberg/v1/" + org.warehouse() + "/namespaces", 100_000, org.token())
        : head("POST", "/ui/sign-in", 100_000, null) + "Cookie: floe_sign_in=x\r\n",
        1, Duration.ofMillis(200))) {
      assertThat(tricklers.answers(PATIENCE)).containsOnly(408);
    }
  }

  @Test
  void healthAndMetricsAnswerWhileEveryRouteThreadReadsASlowButSteadyUpload() throws Exception {
    // Each upload sends 4 KiB a second, above the minimum rate, into a body of 8 MiB: they keep
    // their threads as long as they keep sending, and there are more of them than route threads.
    try (Tricklers uploads = Tricklers.open(floe.server().port(), CONNECTIONS, i ->
        head("POST", "/iceberg/v1/" + org.warehouse() + "/namespaces", 8 * 1024 * 1024,
            org.token()), 1024, Duration.ofMillis(250))) {
      // Real time on purpose: the uploads must have held their threads a while.
      Thread.sleep(1_000);
      assertThat(uploads.stillSending()).isEqualTo(CONNECTIONS);
      assertThat(status(get("/health", null))).isEqualTo(200);
      assertThat(status(get("/ready", null))).isEqualTo(200);
      assertThat(status(get("/metrics", null))).isEqualTo(200);
    }
  }

  @Test
  void requestsWithoutCredentialsShareAFewPlacesAndTheRestAreToldToRetry() throws Exception {
    // The sign-in form is read before anyone is known; steady senders keep their places.
    try (Tricklers signIns = Tricklers.open(floe.server().port(), 40, i ->
        head("POST", "/ui/sign-in", 1024 * 1024, null)
            + "Cookie: floe_sign_in=x\r\nContent-Type: application/x-www-form-urlencoded\r\n",
        1024, Duration.ofMillis(250))) {
      // Real time on purpose: the sign-ins must have taken their places a while.
      Thread.sleep(1_000);
      HttpResponse<String> refused = get("/iceberg/v1/config", null);
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(status(get("/iceberg/v1/config?warehouse=" + org.warehouse(), org.token())))
          .isEqualTo(200);
      assertThat(status(get("/health", null))).isEqualTo(200);
      assertThat(signIns.answers(Duration.ZERO)).contains(429);
    }
  }

  private static String head(String method, String target, long contentLength, String token) {
    return method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + contentLength + "\r\n"
        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n");
  }

  private static int status(HttpResponse<String> response) {
    return response.statusCode();
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(PATIENCE);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String path, String token, String body)
      throws Exception {
    return client().send(HttpRequest.newBuilder(uri(path)).timeout(PATIENCE)
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A client of its own for each request, so that each comes on a new connection as a probe
   * does (a connection kept from an earlier request can be served where a new one waits).
   */
  private static HttpClient client() {
    return HttpClient.newBuilder().connectTimeout(PATIENCE).build();
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + floe.server().port() + path);
  }

  /**
   * Connections that each sent a request head and then send {@code bytes} bytes of body every
   * {@code every} from one thread, until answered or closed (or for twenty seconds at most). Each
   * has a thread that reads its answer's status line as soon as it arrives.
   */
  private static final class Tricklers implements AutoCloseable {
    private static final Duration AT_MOST = Duration.ofSeconds(20);
    private static final int NO_ANSWER = -1;

    private final List<Socket> sockets;
    private final List<Socket> sending;
    private final Map<Socket, Integer> answered = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();

    private Tricklers(List<Socket> sockets, int bytes, Duration every) {
      this.sockets = sockets;
      this.sending = new CopyOnWriteArrayList<>(sockets);
      for (Socket socket : sockets) {
        threads.add(daemon(() -> {
          int status = statusLine(socket);
          answered.put(socket, status);
          sending.remove(socket);
        }));
      }
      byte[] chunk = "x".repeat(bytes).getBytes(StandardCharsets.US_ASCII);
      long end = System.nanoTime() + AT_MOST.toNanos();
      threads.add(daemon(() -> {
        while (!sending.isEmpty() && System.nanoTime() < end) {
          for (Socket socket : sending) {
            try {
              socket.getOutputStream().write(chunk);
            } catch (IOException e) {
              sending.remove(socket); // answered and closed, or cut off
            }
          }
          try {
            // Real time on purpose: this is the slow client's pace.
            Thread.sleep(every.toMillis());
          } catch (InterruptedException e) {
            return;
          }
        }
      }));
    }

    private static Thread daemon(Runnable work) {
      Thread thread = new Thread(work, "slow-client");
      thread.setDaemon(true);
      thread.start();
      return thread;
    }

    static Tricklers open(int port, int count, IntFunction<String> head, int bytes,
        Duration every) throws IOException {
      List<Socket> sockets = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        Socket socket = new Socket("127.0.0.1", port);
        OutputStream out = socket.getOutputStream();
        out.write((head.apply(i) + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        sockets.add(socket);
      }
      return new Tricklers(sockets, bytes, every);
    }

    int stillSending() {
      return sending.size();
    }

    /**
     * The status each connection was answered with, waiting up to {@code patience} for the
     * last; {@value #NO_ANSWER} for one that got no answer in time.
     */
    List<Integer> answers(Duration patience) throws InterruptedException {
      try {
        if (!patience.isZero()) {
          await().atMost(patience).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
              .until(() -> answered.size() >= sockets.size());
        }
      } catch (ConditionTimeoutException e) {
        // Those not answered in time are NO_ANSWER.
      }
      return sockets.stream().map(socket -> answered.getOrDefault(socket, NO_ANSWER)).toList();
    }

    /** The status of the first line the server sends, or {@value #NO_ANSWER}. */
    private static int statusLine(Socket socket) {
      StringBuilder line = new StringBuilder();
      try {
        InputStream in = socket.getInputStream();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
          line.append((char) c);
        }
      } catch (IOException e) {
        // Reset after the answer, or closed by the test: what was read is what counts.
      }
      String[] parts = line.toString().split(" ");
      return parts.length > 1 && parts[0].startsWith("HTTP/") ? Integer.parseInt(parts[1])
          : NO_ANSWER;
    }

    @Override
    public void close() throws IOException {
      threads.forEach(Thread::interrupt);
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }
}
