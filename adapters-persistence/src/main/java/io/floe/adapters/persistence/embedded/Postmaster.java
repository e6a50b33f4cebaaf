package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server this process started on a cluster, on a free loopback port, until
 * {@link #close} stops it (a fast shutdown: sessions end, everything is flushed).
 */
final class Postmaster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Postmaster.class);
  private static final Duration READY_WITHIN = Duration.ofMinutes(10);
  private static final Duration SHUTDOWN_WITHIN = Duration.ofSeconds(60);
  private static final int PORT_ATTEMPTS = 3;

  private final PostgresCluster cluster;
  private final PostgresBinaries binaries;
  private final Process process;
  private final int port;
  private final String password;
  private boolean stopped;

  private Postmaster(PostgresCluster cluster, PostgresBinaries binaries, Process process,
      int port, String password) {
    this.cluster = cluster;
    this.binaries = binaries;
    this.process = process;
    this.port = port;
    this.password = password;
  }

  /**
   * Starts a server on {@code cluster} and returns once it accepts logins with
   * {@code password}. A port another process took in the meantime is retried on another one.
   */
  static Postmaster start(PostgresCluster cluster, PostgresBinaries binaries, String password) {
    try {
      Files.createDirectories(cluster.logDirectory());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + cluster.logDirectory(), e);
    }
    for (int attempt = 1; ; attempt++) {
      int port = freePort();
      List<String> command = new ArrayList<>(binaries.command("postgres", "-D",
          cluster.directory().toString()));
      command.addAll(PostmasterOptions.arguments(port));
      Process process;
      try {
        // What the server prints before its log collector takes over (a failed start, above all).
        process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(startupLog(cluster).toFile()).start();
        process.getOutputStream().close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start PostgreSQL on " + cluster, e);
      }
      Postmaster postmaster = new Postmaster(cluster, binaries, process, port, password);
      try {
        postmaster.awaitReady();
        return postmaster;
      } catch (PortTaken e) {
        if (attempt == PORT_ATTEMPTS) {
          throw new IllegalStateException("PostgreSQL found no free port: " + e.getMessage());
        }
      }
    }
  }

  int port() {
    return port;
  }

  String password() {
    return password;
  }

  long pid() {
    return process.pid();
  }

  String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  Connection connect(String database) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", ClusterAccess.USER);
    properties.setProperty("password", password);
    properties.setProperty("connectTimeout", "10");
    return DriverManager.getConnection(jdbcUrl(database), properties);
  }

  private void awaitReady() {
    Instant deadline = Instant.now().plus(READY_WITHIN);
    Instant nextNote = Instant.now().plusSeconds(10);
    while (true) {
      if (!process.isAlive()) {
        String printed = startupOutput();
        if (printed.contains("could not bind") || printed.contains("Address already in use")) {
          throw new PortTaken(printed);
        }
        throw new IllegalStateException("PostgreSQL stopped while starting on " + cluster
            + " (exit " + process.exitValue() + "): " + printed);
      }
      try (Connection ignored = connect("postgres")) {
        return;
      } catch (SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.startsWith("28")) {
          close();
          throw new IllegalStateException("PostgreSQL on " + cluster + " refused Floe's "
              + "password: " + e.getMessage(), e);
        }
      }
      if (Instant.now().isAfter(deadline)) {
        close();
        throw new IllegalStateException("PostgreSQL on " + cluster + " was not ready within "
            + READY_WITHIN.toMinutes() + " minutes: " + startupOutput());
      }
      if (Instant.now().isAfter(nextNote)) {
        LOG.info("waiting for PostgreSQL on {} to finish starting (recovery after a crash can "
            + "take a while; its log is in {})", cluster, cluster.logDirectory());
        nextNote = Instant.now().plusSeconds(30);
      }
      sleep(50);
    }
  }

  /** Stops the server (a fast shutdown) and waits for it to end. */
  @Override
  public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      if (process.isAlive()) {
        signal(binaries, process.pid(), "INT");
        if (!process.waitFor(SHUTDOWN_WITHIN.toSeconds(), TimeUnit.SECONDS)) {
          LOG.warn("PostgreSQL on {} did not stop within {} s; stopping it immediately", cluster,
              SHUTDOWN_WITHIN.toSeconds());
          signal(binaries, process.pid(), "QUIT");
          if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends a PostgreSQL server a signal by name: {@code INT} is a fast shutdown, {@code QUIT} an
   * immediate one. {@code pg_ctl kill} does it the same way everywhere, and does not care which
   * release the server is.
   */
  static void signal(PostgresBinaries binaries, long pid, String signal) {
    try {
      Programs.run(binaries.command("pg_ctl", "kill", signal, Long.toString(pid)), null);
    } catch (IllegalStateException e) {
      LOG.debug("could not signal {}: {}", pid, e.getMessage());
    }
  }

  private String startupOutput() {
    try {
      String printed = Files.readString(startupLog(cluster), StandardCharsets.UTF_8).strip();
      return printed.length() > 2000 ? "..." + printed.substring(printed.length() - 2000)
          : printed;
    } catch (IOException e) {
      return "(no output)";
    }
  }

  private static Path startupLog(PostgresCluster cluster) {
    return cluster.logDirectory().resolve("postmaster.log");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for PostgreSQL", e);
    }
  }

  /** The port was taken between choosing it and the server binding it. */
  private static final class PortTaken extends RuntimeException {
    PortTaken(String message) {
      super(message);
    }
  }
}
