package io.floe.bootstrap;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A port on loopback that is no object store: it counts the connections made to it and answers
 * each with bytes that are not HTTP, as a database or another service would. Its thread ends
 * when it is closed.
 */
final class NotAStore implements AutoCloseable {
  private final ServerSocket socket;
  private final AtomicInteger connections = new AtomicInteger();

  NotAStore() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::serve, "not-a-store");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String endpoint() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  private void serve() {
    while (!socket.isClosed()) {
      try (Socket client = socket.accept(); OutputStream out = client.getOutputStream()) {
        connections.incrementAndGet();
        out.write("EFATAL unsupported frontend protocol\n".getBytes(StandardCharsets.US_ASCII));
      } catch (IOException closedOrReset) {
        // The socket closes, or a client gave up: either way the next accept decides.
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
