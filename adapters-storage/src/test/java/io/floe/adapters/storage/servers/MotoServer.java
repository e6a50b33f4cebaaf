package io.floe.adapters.storage.servers;

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

  @Override
  public void close() {
    server.close();
  }
}
