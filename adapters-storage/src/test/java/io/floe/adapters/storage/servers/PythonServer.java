package io.floe.adapters.storage.servers;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A protocol server from PyPI (moto, a GCS emulator) run for a test on a free loopback port
 * with {@link TestPython}. The server ends with the JVM, and after an hour in any case.
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
   * Starts {@code module} as {@code python -m module} would, with {@code args} in which
   * {@code {port}} stands for the chosen port, and waits until it accepts connections.
   * {@code requiredModules} are imported first, to fail with a clear message.
   */
  public static PythonServer start(String requiredModules, String module, String... args) {
    Path python = TestPython.require(requiredModules);
    AssertionError last = null;
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      int port = freePort();
      List<String> launcherArgs = new ArrayList<>(List.of(Integer.toString(MAX_LIFE_SECONDS),
          module));
      for (String arg : args) {
        launcherArgs.add(arg.replace("{port}", Integer.toString(port)));
      }
      List<String> command = TestPython.command(python, "serve_until_parent_exits.py",
          launcherArgs);
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
        // Between attempts, wait on the process itself: an exit is noticed at once.
        awaitExit(Duration.ofMillis(100));
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

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
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

  private void awaitExit(Duration atMost) {
    try {
      process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
