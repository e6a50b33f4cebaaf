package io.floe.adapters.storage.servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on loopback in front of an object store that misbehaves on demand, the way
 * stores do: it answers S3 errors itself (503 SlowDown, 500 InternalError, 403 AccessDenied),
 * forwards a request and then loses the answer (the write landed, the client never hears), or
 * never answers at all. Requests the current fault does not apply to are forwarded unchanged
 * (the {@code Host} the client signed included), one upstream connection per request.
 */
public final class FaultProxy implements AutoCloseable {
  /** What the proxy does with a request the fault applies to. */
  public enum Fault {
    NONE(0, null),
    SLOW_DOWN(503, "SlowDown"),
    INTERNAL_ERROR(500, "InternalError"),
    ACCESS_DENIED(403, "AccessDenied"),
    /** Forwarded, so the store does it; then the connection is closed without an answer. */
    LOSE_ANSWER(0, null),
    /** Read, never forwarded nor answered, until the client gives up or the proxy closes. */
    HANG(0, null);

    final int status;
    final String code;

    Fault(int status, String code) {
      this.status = status;
      this.code = code;
    }
  }

  private final ServerSocket server;
  private final int upstreamPort;
  private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
    Thread thread = new Thread(task, "fault-proxy");
    thread.setDaemon(true);
    return thread;
  });
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicInteger hanging = new AtomicInteger();
  private final AtomicInteger faulted = new AtomicInteger();
  private final AtomicInteger forwarded = new AtomicInteger();
  private volatile Fault fault = Fault.NONE;
  private volatile Predicate<String> appliesTo = requestLine -> true;

  /** A proxy to the store at {@code upstreamEndpoint} ({@code http://127.0.0.1:port}). */
  public FaultProxy(String upstreamEndpoint) throws IOException {
    this.upstreamPort = java.net.URI.create(upstreamEndpoint).getPort();
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** From now on, {@code fault} for every request. */
  public FaultProxy fault(Fault fault) {
    return fault(fault, requestLine -> true);
  }

  /** From now on, {@code fault} for requests whose request line ({@code PUT /b/k HTTP/1.1}) matches. */
  public FaultProxy fault(Fault fault, Predicate<String> appliesTo) {
    this.appliesTo = appliesTo;
    this.fault = fault;
    return this;
  }

  /** Requests held without an answer right now. */
  public int hanging() {
    return hanging.get();
  }

  /** Requests the fault was applied to so far. */
  public int faulted() {
    return faulted.get();
  }

  public int forwarded() {
    return forwarded.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      while (true) {
        String head = readHead(in);
        if (head == null) {
          return;
        }
        String requestLine = head.substring(0, head.indexOf("\r\n"));
        long length = 0;
        boolean expectContinue = false;
        StringBuilder forwardedHead = new StringBuilder(requestLine).append("\r\n");
        for (String line : head.substring(head.indexOf("\r\n") + 2).split("\r\n")) {
          String name = line.substring(0, Math.max(0, line.indexOf(':'))).trim()
              .toLowerCase(Locale.ROOT);
          String value = line.substring(line.indexOf(':') + 1).trim();
          switch (name) {
            case "content-length" -> length = Long.parseLong(value);
            case "transfer-encoding" -> throw new IOException("chunked requests not proxied");
            case "expect" -> expectContinue = value.equalsIgnoreCase("100-continue");
            case "connection", "" -> { }
            default -> forwardedHead.append(line).append("\r\n");
          }
        }
        forwardedHead.append("Connection: close\r\n\r\n");
        if (expectContinue) {
          out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
        byte[] body = in.readNBytes((int) length);
        Fault now = appliesTo.test(requestLine) ? fault : Fault.NONE;
        if (now != Fault.NONE) {
          faulted.incrementAndGet();
        }
        switch (now) {
          case HANG -> {
            hanging.incrementAndGet();
            try {
              // Until the client gives up and closes, or the proxy closes: it sends nothing more.
              while (in.read() >= 0) {
                // drain
              }
            } finally {
              hanging.decrementAndGet();
            }
            return;
          }
          case SLOW_DOWN, INTERNAL_ERROR, ACCESS_DENIED -> {
            out.write(errorAnswer(now));
            out.flush();
          }
          case LOSE_ANSWER -> {
            forward(forwardedHead.toString(), body);
            return; // the store did it; the client hears nothing
          }
          case NONE -> {
            out.write(forward(forwardedHead.toString(), body));
            out.flush();
          }
          default -> throw new IllegalStateException();
        }
      }
    } catch (IOException e) {
      // the client went away, or the proxy closed
    } finally {
      sockets.remove(client);
    }
  }

  private byte[] forward(String head, byte[] body) throws IOException {
    try (Socket upstream = new Socket()) {
      upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort));
      OutputStream out = upstream.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      byte[] answer = upstream.getInputStream().readAllBytes();
      forwarded.incrementAndGet();
      return answer;
    }
  }

  private static byte[] errorAnswer(Fault fault) {
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + fault.code
        + "</Code><Message>injected by the test's proxy</Message><RequestId>fault</RequestId>"
        + "</Error>").getBytes(StandardCharsets.UTF_8);
    String reason = switch (fault.status) {
      case 503 -> "Service Unavailable";
      case 500 -> "Internal Server Error";
      default -> "Forbidden";
    };
    String head = "HTTP/1.1 " + fault.status + " " + reason + "\r\nContent-Type: application/xml"
        + "\r\nContent-Length: " + body.length + "\r\nx-amz-request-id: fault\r\n\r\n";
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    answer.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
    answer.writeBytes(body);
    return answer.toByteArray();
  }

  /** The request's head up to its blank line, or null when the connection ended first. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1)
          ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.substring(0, text.length() - 4);
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : new ArrayList<>(sockets)) {
      socket.close();
    }
    threads.shutdownNow();
  }
}
