package io.floe.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy on loopback between Floe and a PostgreSQL server, for faults no server makes on
 * request: the answer to a {@code COMMIT} lost after the server committed, and a server that
 * cannot be reached at all while it runs. It passes bytes through unchanged otherwise, and keeps
 * its port when the server behind it restarts on another one.
 */
final class PostgresProxy implements AutoCloseable {
  /**
   * The server's CommandComplete message for a COMMIT: type 'C', length 11, the tag "COMMIT" and
   * its terminating zero. The server sends it once the transaction is committed.
   */
  private static final byte[] COMMIT_COMPLETE = concat(new byte[] {'C', 0, 0, 0, 11},
      "COMMIT\0".getBytes(StandardCharsets.US_ASCII));

  private final ServerSocket listener;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean loseNextCommitAnswer = new AtomicBoolean();
  private volatile boolean unreachableAfterLoss;
  private volatile int target;
  private volatile boolean unreachable;

  PostgresProxy(int target) throws IOException {
    this.target = target;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accepting = new Thread(this::accept, "postgres-proxy");
    accepting.setDaemon(true);
    accepting.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** The server restarted on another port. */
  void target(int port) {
    this.target = port;
  }

  /**
   * The next COMMIT the server completes is not answered: the connection it came on breaks just
   * before the answer would have reached Floe.
   */
  void loseNextCommitAnswer() {
    unreachableAfterLoss = false;
    loseNextCommitAnswer.set(true);
  }

  /** Like {@link #loseNextCommitAnswer}, and the server is unreachable from then on. */
  void loseNextCommitAnswerAndStayUnreachable() {
    unreachableAfterLoss = true;
    loseNextCommitAnswer.set(true);
  }

  boolean commitAnswerLost() {
    return !loseNextCommitAnswer.get();
  }

  /** While true, every connection is broken and new ones are closed as soon as they open. */
  void unreachable(boolean value) {
    unreachable = value;
    if (value) {
      open.forEach(PostgresProxy::closeQuietly);
    }
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        if (unreachable) {
          client.close();
          continue;
        }
        Socket server;
        try {
          server = new Socket(InetAddress.getLoopbackAddress(), target);
        } catch (IOException e) {
          client.close(); // the server is down: so is the way to it
          continue;
        }
        open.add(client);
        open.add(server);
        pump(client, server, false);
        pump(server, client, true);
      } catch (IOException e) {
        // The listener closed.
      }
    }
  }

  private void pump(Socket from, Socket to, boolean fromServer) {
    Thread thread = new Thread(() -> {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          if (fromServer && contains(buffer, n, COMMIT_COMPLETE)
              && loseNextCommitAnswer.compareAndSet(true, false)) {
            if (unreachableAfterLoss) {
              unreachable(true);
            }
            break;
          }
          out.write(buffer, 0, n);
        }
      } catch (IOException e) {
        // One side went away: so does the other.
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }, "postgres-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private static boolean contains(byte[] buffer, int length, byte[] pattern) {
    for (int i = 0; i + pattern.length <= length; i++) {
      int j = 0;
      while (j < pattern.length && buffer[i + j] == pattern[j]) {
        j++;
      }
      if (j == pattern.length) {
        return true;
      }
    }
    return false;
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closed already
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    open.forEach(PostgresProxy::closeQuietly);
  }
}
