package io.floe.bootstrap;

import io.floe.domain.OrgName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts a Floe server for Iceberg's REST Compatibility Kit, which only connects to a URL it reads
 * from the environment. Active only in the build's compatibility-kit run, which sets
 * {@code floe.rck.port}, {@code floe.rck.warehouse} and {@code floe.rck.token}; the token becomes
 * the org's bootstrap admin token.
 */
public final class CompatibilityKitServer implements LauncherSessionListener {
  private FloeServer server;
  private Path directory;

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    String port = System.getProperty("floe.rck.port");
    if (port == null || port.isBlank()) {
      return;
    }
    try {
      directory = Files.createTempDirectory("floe-rck");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ServerSettings settings = TestSettings.defaults(directory)
        .port(Integer.parseInt(port))
        .org(new OrgName(System.getProperty("floe.rck.warehouse")))
        .bootstrapToken(System.getProperty("floe.rck.token"))
        // The kit drops and re-creates the same namespaces between tests.
        .namespaceRecoveryPeriod(Duration.ZERO).build();
    server = FloeServer.start(settings);
    // Not every test runner closes its launcher session; never leave the server running.
    Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    stop();
  }

  private synchronized void stop() {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
