package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.icechunk.engine.CommitConflictException;
import io.floe.adapters.icechunk.engine.CommitInfo;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.s3.S3BucketStorage;
import io.floe.adapters.storage.s3.S3Clients;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Python Icechunk 2.3 commit and a Floe commit racing on one branch of a repository on an
 * S3-compatible server that evaluates If-Match / If-None-Match (moto in server mode): in every
 * round both sessions start from the same parent with disjoint changes (chunk {@code r} of
 * {@code /floe} and of {@code /python}) and commit at the same wall-clock instant. Exactly one
 * lands first; the other gets its conflict (Floe {@link CommitConflictException}, Python
 * {@code icechunk.ConflictError}), rebases and lands on top. Needs the Python of
 * {@code floe.python} (else {@code .venv}) with icechunk 2.3, zarr and moto[server]; without it
 * the test fails, unless {@code -Dfloe.skipPythonInterop=true}.
 */
class IcechunkS3RaceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCESS_KEY = "race-test-access";
  private static final String SECRET_KEY = "race-test-secret";
  private static final String BUCKET = "icechunk-race";
  private static final StoragePath PREFIX = new StoragePath("repos/race");
  private static final int ROUNDS = 20;
  private static final int CHUNK = 200; // 800 bytes of int32: native chunks, above the inline limit
  /** Both sides are told to commit this long after the command is sent. */
  private static final long START_DELAY_NANOS = 300_000_000L;

  private static Path python;
  private static Process moto;
  private static String endpoint;
  private static S3Client client;
  private static BucketStorage storage;

  @BeforeAll
  static void startMoto() throws Exception {
    assumeFalse(Boolean.getBoolean("floe.skipPythonInterop"), "floe.skipPythonInterop=true");
    python = python();
    if (!Files.isExecutable(python)) {
      fail("this test needs a Python with icechunk==2.3.0, zarr and moto[server] at " + python
          + " (set -Dfloe.python=..., or -Dfloe.skipPythonInterop=true to skip it)");
    }
    Process check = new ProcessBuilder(python.toString(), "-c",
        "import icechunk, zarr, moto.server, flask").redirectErrorStream(true).start();
    String checkOut = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!check.waitFor(60, TimeUnit.SECONDS) || check.exitValue() != 0) {
      fail(python + " cannot import icechunk, zarr and moto.server (-Dfloe.skipPythonInterop=true "
          + "to skip):\n" + checkOut);
    }
    int port = freePort();
    // moto's own server, ended when its stdin closes: with this JVM, however it ends.
    moto = new ProcessBuilder(python.toString(), "-c", "import os, sys, threading\n"
        + "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n"
        + "from moto.server import main\n"
        + "main(['-H', '127.0.0.1', '-p', '" + port + "'])")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    endpoint = "http://127.0.0.1:" + port;
    awaitListening(port);
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(),
        new CatalogName("race-bucket"), StoragePlatform.S3_COMPATIBLE, BUCKET, StoragePath.root(),
        Optional.of(endpoint), Optional.of("us-east-1"), true,
        BucketCredentials.staticKeys(ACCESS_KEY, SECRET_KEY), false);
    client = S3Clients.s3(bucket);
    client.createBucket(b -> b.bucket(BUCKET));
    storage = new S3BucketStorage(client, bucket);
  }

  @AfterAll
  static void stopMoto() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (moto != null) {
      moto.destroy();
      if (!moto.waitFor(10, TimeUnit.SECONDS)) {
        moto.destroyForcibly();
      }
    }
  }

  @Test
  void pythonAndFloeCommitsRacingOnMainOneWinsTheOtherRebasesAndLands() throws Exception {
    IcechunkRepository created = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession setup = created.writableSession("main");
    setup.createGroup("/", Map.of());
    setup.setMetadata("/floe", int32ArrayJson(ROUNDS * CHUNK, CHUNK));
    setup.setMetadata("/python", int32ArrayJson(ROUNDS * CHUNK, CHUNK));
    ObjectId12 setupId = setup.commit("setup", Map.of("by", "floe"));

    Process py = new ProcessBuilder(python.toString(),
        Path.of(System.getProperty("user.dir"), "src/test/python/icechunk_s3_race.py").toString(),
        endpoint, BUCKET, PREFIX.value(), ACCESS_KEY, SECRET_KEY)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> report = new ArrayList<>();
    int floeWins = 0;
    int pythonWins = 0;
    int overlappedFloeWins = 0;
    int overlappedPythonWins = 0;
    try (Writer toPython = new OutputStreamWriter(py.getOutputStream(), StandardCharsets.UTF_8);
         BufferedReader fromPython = new BufferedReader(
             new InputStreamReader(py.getInputStream(), StandardCharsets.UTF_8))) {
      ObjectId12 tip = setupId;
      long floeAttemptNanos = 0;
      long pythonAttemptNanos = 0;
      for (int r = 0; r < ROUNDS; r++) {
        JsonNode prepared = ask(toPython, fromPython, py, "prepare " + r);
        WritableSession floe =
            IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX).writableSession("main");
        floe.setChunk("/floe", ChunkIndex.of(r), int32s(floeValues(r)));
        assertThat(floe.snapshotId()).as("Floe's base, round %d", r).isEqualTo(tip);
        assertThat(prepared.get("base").asText()).as("Python's base, round %d", r)
            .isEqualTo(tip.toString());

        // Round 0: both start together, and each side's first attempt is measured. Later rounds
        // sweep one side's start from 0 to twice the other's attempt, taking turns: odd rounds
        // delay Python (through the window where Floe's conditional write lands first while
        // Python's commit is under way), even rounds delay Floe (the other way round). So each
        // side wins some overlapping rounds whichever commit is the quicker on this machine.
        int step = (r - 1) / 2;
        int steps = (ROUNDS - 1) / 2;
        long pythonDelay = r % 2 == 1 ? 2 * floeAttemptNanos * step / steps : 0;
        long floeDelay = r > 0 && r % 2 == 0 ? 2 * pythonAttemptNanos * step / steps : 0;
        long target = nowNanos() + START_DELAY_NANOS;
        send(toPython, "go " + (target + pythonDelay));
        while (nowNanos() < target + floeDelay) {
          Thread.onSpinWait();
        }
        long floeStart = nowNanos();
        ObjectId12 floeFirst = null;
        CommitConflictException floeConflict = null;
        try {
          floeFirst = floe.commit("floe round " + r, Map.of("by", "floe", "round", r));
        } catch (CommitConflictException e) {
          floeConflict = e;
        }
        long floeFirstEnd = nowNanos();
        if (r == 0) {
          floeAttemptNanos = floeFirstEnd - floeStart;
        }
        ObjectId12 floeLanded = floeFirst;
        if (floeConflict != null) {
          floe.rebase();
          floeLanded = floe.commit("floe round " + r + " (rebased)",
              Map.of("by", "floe", "round", r));
        }
        JsonNode pyResult = readAnswer(fromPython, py);
        boolean pyConflicted = pyResult.get("conflicted").asBoolean();
        String pyLanded = pyResult.get("id").asText();

        long pyStart = pyResult.get("start_ns").asLong();
        long pyFirstEnd = pyResult.get(pyConflicted ? "end_first_ns" : "end_ns").asLong();
        if (r == 0) {
          pythonAttemptNanos = pyFirstEnd - pyStart;
        }
        // Did the two first attempts overlap in time: was it a race?
        boolean overlapped = floeStart < pyFirstEnd && pyStart < floeFirstEnd;
        if (overlapped) {
          if (floeConflict == null) {
            overlappedFloeWins++;
          } else {
            overlappedPythonWins++;
          }
        }
        report.add(String.format("round %2d: %-6s won; first attempts (ms after the start "
                + "instant): floe %.1f-%.1f, python %.1f-%.1f%s", r,
            floeConflict == null ? "floe" : "python",
            (floeStart - target) / 1e6, (floeFirstEnd - target) / 1e6,
            (pyStart - target) / 1e6, (pyFirstEnd - target) / 1e6,
            overlapped ? ", overlapping" : ", one after the other"));

        assertThat(floeConflict == null ^ !pyConflicted)
            .as("exactly one side conflicts in round %d (floe conflicted: %s, python: %s)", r,
                floeConflict != null, pyConflicted)
            .isTrue();
        List<CommitInfo> log =
            IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX).log(Ref.branch("main"));
        if (floeConflict == null) {
          floeWins++;
          // Floe landed first on the shared parent; Python's first attempt was refused.
          assertThat(pyResult.has("first_id")).isFalse();
          assertThat(log.get(0).id().toString()).isEqualTo(pyLanded);
          assertThat(log.get(0).parentId()).isEqualTo(floeFirst);
          assertThat(log.get(1).id()).isEqualTo(floeFirst);
          assertThat(log.get(0).message()).isEqualTo("python round " + r + " (rebased)");
        } else {
          pythonWins++;
          String pyFirst = pyResult.get("first_id").asText();
          assertThat(floeConflict.expectedParent()).isEqualTo(tip);
          assertThat(floeConflict.actualParent().toString()).isEqualTo(pyFirst);
          assertThat(pyLanded).isEqualTo(pyFirst);
          assertThat(log.get(0).id()).isEqualTo(floeLanded);
          assertThat(log.get(0).parentId().toString()).isEqualTo(pyFirst);
          assertThat(log.get(1).id().toString()).isEqualTo(pyFirst);
          assertThat(log.get(0).message()).isEqualTo("floe round " + r + " (rebased)");
        }
        assertThat(log.get(1).parentId()).as("round %d's winner sits on the shared parent", r)
            .isEqualTo(tip);
        tip = log.get(0).id();
      }

      // Both sides read the whole history and both arrays.
      JsonNode described = ask(toPython, fromPython, py, "describe");
      List<CommitInfo> log =
          IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX).log(Ref.branch("main"));
      assertThat(log).hasSize(2 * ROUNDS + 2); // + setup + "Repository initialized"
      assertThat(described.get("log")).hasSize(log.size());
      for (int i = 0; i < log.size(); i++) {
        assertThat(described.get("log").get(i).get("id").asText())
            .isEqualTo(log.get(i).id().toString());
        assertThat(described.get("log").get(i).get("message").asText())
            .isEqualTo(log.get(i).message());
      }
      ReadSession main = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX)
          .readonlySession(Ref.branch("main"));
      for (int r = 0; r < ROUNDS; r++) {
        assertThat(main.chunk("/floe", ChunkIndex.of(r))).as("Floe reads /floe chunk %d", r)
            .contains(int32s(floeValues(r)));
        assertThat(main.chunk("/python", ChunkIndex.of(r))).as("Floe reads /python chunk %d", r)
            .contains(int32s(pythonValues(r)));
        for (int i = 0; i < CHUNK; i++) {
          assertThat(described.get("floe").get(r * CHUNK + i).asInt()).isEqualTo(floeValues(r)[i]);
          assertThat(described.get("python").get(r * CHUNK + i).asInt())
              .isEqualTo(pythonValues(r)[i]);
        }
      }
      send(toPython, "quit");
      assertThat(py.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(py.exitValue()).isZero();
    } finally {
      py.destroy();
      report.forEach(System.out::println);
      System.out.printf("%d rounds: floe won %d (%d overlapping), python won %d (%d overlapping)%n",
          ROUNDS, floeWins, overlappedFloeWins, pythonWins, overlappedPythonWins);
    }
    assertThat(floeWins + pythonWins).isEqualTo(ROUNDS);
    // The sweep makes each side win some rounds while the other's commit is in flight.
    assertThat(overlappedPythonWins).as("rounds Python won while Floe's commit was in flight")
        .isPositive();
    assertThat(overlappedFloeWins).as("rounds Floe won while Python's commit was in flight")
        .isPositive();
  }

  // ------------------------------------------------------------ helpers

  private static int[] floeValues(int round) {
    int[] v = new int[CHUNK];
    for (int i = 0; i < CHUNK; i++) {
      v[i] = -(round * 1000 + i) - 1;
    }
    return v;
  }

  /** What the Python script writes: round * 1000 + i. */
  private static int[] pythonValues(int round) {
    int[] v = new int[CHUNK];
    for (int i = 0; i < CHUNK; i++) {
      v[i] = round * 1000 + i;
    }
    return v;
  }

  private static byte[] int32s(int[] values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }

  static byte[] int32ArrayJson(long length, long chunk) {
    return ("{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[" + length + "],"
        + "\"data_type\":\"int32\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":"
        + "{\"chunk_shape\":[" + chunk + "]}},\"chunk_key_encoding\":{\"name\":\"default\","
        + "\"configuration\":{\"separator\":\"/\"}},\"fill_value\":0,\"codecs\":[{\"name\":"
        + "\"bytes\",\"configuration\":{\"endian\":\"little\"}}],\"attributes\":{}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  private static JsonNode ask(Writer to, BufferedReader from, Process py, String command)
      throws IOException {
    send(to, command);
    return readAnswer(from, py);
  }

  private static void send(Writer to, String command) throws IOException {
    to.write(command + "\n");
    to.flush();
  }

  private static JsonNode readAnswer(BufferedReader from, Process py) throws IOException {
    String line = from.readLine();
    if (line == null) {
      fail("icechunk_s3_race.py ended (exit " + (py.isAlive() ? "?" : py.exitValue())
          + "); its stderr is in the test output");
    }
    return JSON.readTree(line);
  }

  private static Path python() {
    String configured = System.getProperty("floe.python");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent()
        .resolve(".venv/bin/python");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }

  private static void awaitListening(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!moto.isAlive()) {
        fail("moto exited with " + moto.exitValue());
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        // Between attempts, wait on the process itself: an exit is noticed at once.
        moto.waitFor(100, TimeUnit.MILLISECONDS);
      }
    }
    fail("moto did not listen on " + port + " within 60 s");
  }
}
