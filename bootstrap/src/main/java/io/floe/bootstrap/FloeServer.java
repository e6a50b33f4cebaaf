package io.floe.bootstrap;

import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.application.port.out.LifecycleProbe;
import java.time.Clock;

/**
 * A running Floe server: what the {@link Composition} built, its bootstrap org provisioned,
 * serving HTTP. Closing it stops everything it started, last started first.
 */
public final class FloeServer implements AutoCloseable {
  private final Composition composition;

  private FloeServer(Composition composition) {
    this.composition = composition;
  }

  /** Starts a server; on any failure, whatever had started is stopped again. */
  public static FloeServer start(ServerSettings settings) {
    return serve(Composition.build(settings, Clock.systemUTC(), LifecycleProbe.NONE));
  }

  /** Serves what {@code composition} built; on any failure, stops it again. */
  static FloeServer serve(Composition composition) {
    try {
      composition.serve();
      return new FloeServer(composition);
    } catch (RuntimeException e) {
      composition.close();
      throw e;
    }
  }

  public int port() {
    return composition.http.port();
  }

  public String catalogUri() {
    return "http://" + composition.settings.bind() + ":" + port() + IcebergRoutes.ROOT;
  }

  /** Where people open the web app. */
  public String webUri() {
    return "http://" + composition.settings.bind() + ":" + port() + "/";
  }

  @Override
  public void close() {
    composition.close();
  }
}
