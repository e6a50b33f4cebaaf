package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.cache.CacheInvalidations;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.SocketFactory;

/**
 * The PostgreSQL driver's sockets ({@code socketFactory} in the JDBC URL), which fail the cache
 * listener's next connections with an {@code Error}, as a heap that ran out would: a failure its
 * loop does not catch. Every other thread's connections are plain sockets.
 */
public final class FailingListenerSockets extends SocketFactory {
  private static final AtomicInteger FAILURES = new AtomicInteger();

  /** The listener's next {@code count} connections fail. */
  static void failListenerConnects(int count) {
    FAILURES.set(count);
  }

  private static Socket plain() {
    if (Thread.currentThread().getName().equals(CacheInvalidations.LISTENER)
        && FAILURES.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
      throw new StackOverflowError("a failure the listener's loop does not catch");
    }
    return new Socket();
  }

  @Override
  public Socket createSocket() {
    return plain();
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    Socket socket = plain();
    socket.connect(new java.net.InetSocketAddress(host, port));
    return socket;
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    Socket socket = plain();
    socket.bind(new java.net.InetSocketAddress(localHost, localPort));
    socket.connect(new java.net.InetSocketAddress(host, port));
    return socket;
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    Socket socket = plain();
    socket.connect(new java.net.InetSocketAddress(host, port));
    return socket;
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress,
      int localPort) throws IOException {
    Socket socket = plain();
    socket.bind(new java.net.InetSocketAddress(localAddress, localPort));
    socket.connect(new java.net.InetSocketAddress(address, port));
    return socket;
  }
}
