package io.floe.adapters.storage.servers;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A protocol server from PyPI (moto, a GCS emulator) run for a test on a free loopback port.
 * The Python is {@code -Dfloe.python}, else the repository's {@code .venv}. A missing Python or
 * package fails the test; only {@code -Dfloe.skipPythonServers=true} skips it. The server ends
 * with the JVM, and after an hour in any case.
 */
public final class PythonServer implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final int MAX_LIFE_SECONDS = 3600;
  private static final int START_ATTEMPTS = 3;

  private final Process process;
  private final int port;
  private final StringBuffer output = new StringBuffer();

  private PythonServer(Process process, int port) {
    this.process = process;
    this.port = port;
    Thread drain = new Thread(() -> drain(process.getInputStream()), "python-server-output");
    drain.setDaemon(true);
    drain.start();
  }

  /**
   * Starts {@code module} (run as {@code python -m module}) with {@code args}, where the
   * placeholder {@code {port}} is replaced by the chosen port, and waits until it accepts
   * connections. {@code requiredImport} is checked first, to fail with a clear message.
   */
  public static PythonServer start(String requiredImport, String module, String... args) {
    skipIfRequested();
    Path python = requirePython(requiredImport);
    AssertionError last = null;
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      int port = freePort();
      List<String> command = new ArrayList<>(List.of(python.toString(), launcher().toString(),
          Integer.toString(MAX_LIFE_SECONDS), module));
      for (String arg : args) {
        command.add(arg.replace("{port}", Integer.toString(port)));
      }
      PythonServer server;
      try {
        server = new PythonServer(new ProcessBuilder(command).redirectErrorStream(true).start(),
            port);
      } catch (IOException e) {
        throw new AssertionError("could not start " + command, e);
      }
      try {
        server.awaitListening();
        return server;
      } catch (AssertionError e) {
        // Another process may have taken the port between choosing and binding it.
        server.close();
        last = e;
      }
    }
    throw last;
  }

  public int port() {
    return port;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  public String output() {
    return output.toString();
  }

  private void awaitListening() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("the server exited with " + process.exitValue() + ":\n" + output);
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        sleep(100);
      }
    }
    throw new AssertionError("the server did not listen on " + port + " within " + START_TIMEOUT
        + ":\n" + output);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static boolean skipRequested() {
    return Boolean.getBoolean("floe.skipPythonServers");
  }

  private static void skipIfRequested() {
    Assumptions.assumeFalse(skipRequested(), "floe.skipPythonServers=true");
  }

  private static Path requirePython(String requiredImport) {
    Path python = python();
    if (!Files.isExecutable(python)) {
      fail("tests against Python servers need a Python at " + python + " with the packages in "
          + ".ci/python-requirements.txt (set -Dfloe.python=..., or -Dfloe.skipPythonServers=true "
          + "to skip them)");
    }
    try {
      Process check = new ProcessBuilder(python.toString(), "-c", "import " + requiredImport)
          .redirectErrorStream(true).start();
      String text = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!check.waitFor(60, TimeUnit.SECONDS) || check.exitValue() != 0) {
        fail(python + " cannot import " + requiredImport + " (pip install -r "
            + ".ci/python-requirements.txt, or -Dfloe.skipPythonServers=true):\n" + text);
      }
    } catch (IOException e) {
      fail("could not run " + python, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted", e);
    }
    return python;
  }

  static Path python() {
    String configured = System.getProperty("floe.python");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return repoRoot().resolve(".venv/bin/python");
  }

  private static Path launcher() {
    Path local = Path.of(System.getProperty("user.dir"), "src/test/python/serve_until_parent_exits.py");
    return Files.exists(local) ? local
        : repoRoot().resolve("adapters-storage/src/test/python/serve_until_parent_exits.py");
  }

  private static Path repoRoot() {
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve(".ci"))) {
        return p;
      }
    }
    return start;
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new AssertionError("no free port", e);
    }
  }

  private void drain(InputStream in) {
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) > 0; ) {
        output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        if (output.length() > 200_000) {
          output.delete(0, 100_000);
        }
      }
    } catch (IOException ignored) {
      // The process ended.
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
