package io.floe.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 written byte by byte on a socket, so that a test can send what no well-behaved client
 * sends: invalid bytes in the request line and the headers, a Content-Length that promises more
 * than arrives, a chunked body that stops in the middle. One request per connection.
 */
final class RawHttp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int TIMEOUT_MS = 30_000;

  /** How the body is framed on the wire. */
  enum Framing {
    /** Content-Length is the body's length. */
    EXACT,
    /** Content-Length promises more than the body; the client then stops sending. */
    SHORT,
    /** Chunked, with a chunk announced larger than what is sent before the client stops. */
    CHUNKED_CUT,
    /**
     * Content-Length is the body's length and {@code Expect: 100-continue} asks whether to send
     * it; the client sends only the head and reads the first answer, which should be a refusal.
     */
    ANNOUNCED_ONLY
  }

  /** A request; {@code target} is the raw request-target (path and query) as bytes. */
  record Request(String method, byte[] target, Map<String, byte[]> headers, byte[] body,
      Framing framing) {
    Request {
      headers = new LinkedHashMap<>(headers);
    }

    static Request of(String method, String target) {
      return new Request(method, target.getBytes(StandardCharsets.UTF_8), Map.of(), null,
          Framing.EXACT);
    }

    Request header(String name, String value) {
      return header(name, value.getBytes(StandardCharsets.UTF_8));
    }

    Request header(String name, byte[] value) {
      Map<String, byte[]> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Request(method, target, more, body, framing);
    }

    Request withoutHeader(String name) {
      Map<String, byte[]> fewer = new LinkedHashMap<>(headers);
      fewer.remove(name);
      return new Request(method, target, fewer, body, framing);
    }

    Request body(byte[] newBody, Framing newFraming) {
      return new Request(method, target, headers, newBody, newFraming);
    }

    Request body(String newBody) {
      return body(newBody == null ? null : newBody.getBytes(StandardCharsets.UTF_8),
          Framing.EXACT);
    }

    Request target(byte[] newTarget) {
      return new Request(method, newTarget, headers, body, framing);
    }

    /** A short description for failure reports: method, target and the start of the body. */
    String describe() {
      String text = method + " " + printable(target, 160);
      if (!headers.isEmpty()) {
        List<String> shown = new ArrayList<>();
        headers.forEach((name, value) -> {
          if (!name.equalsIgnoreCase("Authorization") || !startsWith(value, "Bearer ema_")) {
            shown.add(name + ": " + printable(value, 60));
          }
        });
        if (!shown.isEmpty()) {
          text += " " + shown;
        }
      }
      if (body != null) {
        text += " body=" + printable(body, 160) + (framing == Framing.EXACT ? "" : " " + framing);
      }
      return text;
    }
  }

  /** A response: status, headers (names in lower case) and body. */
  record Reply(int status, Map<String, String> headers, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The body as JSON, or null when it is not JSON. */
    JsonNode json() {
      try {
        return body.length == 0 ? null : JSON.readTree(body);
      } catch (IOException e) {
        return null;
      }
    }
  }

  private final int port;

  RawHttp(int port) {
    this.port = port;
  }

  Reply send(Request request) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
      socket.setSoTimeout(TIMEOUT_MS);
      OutputStream out = socket.getOutputStream();
      out.write(head(request));
      if (request.body() != null && request.framing() != Framing.ANNOUNCED_ONLY) {
        out.write(framedBody(request));
      }
      out.flush();
      if (request.framing() != Framing.EXACT) {
        socket.shutdownOutput();
      }
      return parse(socket.getInputStream().readAllBytes(), request.method());
    } catch (IOException e) {
      throw new UncheckedIOException("no answer to " + request.describe(), e);
    }
  }

  private byte[] head(Request request) {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    head.writeBytes((request.method() + " ").getBytes(StandardCharsets.US_ASCII));
    head.writeBytes(request.target());
    head.writeBytes((" HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    request.headers().forEach((name, value) -> {
      head.writeBytes((name + ": ").getBytes(StandardCharsets.US_ASCII));
      head.writeBytes(value);
      head.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    });
    if (request.body() != null) {
      String framing = switch (request.framing()) {
        case EXACT -> "Content-Length: " + request.body().length;
        case SHORT -> "Content-Length: " + (request.body().length + 1000);
        case CHUNKED_CUT -> "Transfer-Encoding: chunked";
        case ANNOUNCED_ONLY -> "Content-Length: " + request.body().length
            + "\r\nExpect: 100-continue";
      };
      head.writeBytes((framing + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }
    head.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    return head.toByteArray();
  }

  private static byte[] framedBody(Request request) {
    if (request.framing() != Framing.CHUNKED_CUT) {
      return request.body();
    }
    ByteArrayOutputStream chunked = new ByteArrayOutputStream();
    chunked.writeBytes((Integer.toHexString(request.body().length + 1000) + "\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    chunked.writeBytes(request.body());
    return chunked.toByteArray();
  }

  private static Reply parse(byte[] raw, String method) throws IOException {
    int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    if (end < 0) {
      throw new IOException("not an HTTP response: " + printable(raw, 200));
    }
    String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim());
    }
    byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
    if (method.equals("HEAD")) {
      body = new byte[0];
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(body);
    }
    return new Reply(status, headers, body);
  }

  private static byte[] dechunk(byte[] chunked) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int position = 0;
    while (position < chunked.length) {
      int lineEnd = indexOf(java.util.Arrays.copyOfRange(chunked, position, chunked.length),
          "\r\n".getBytes(StandardCharsets.US_ASCII));
      if (lineEnd < 0) {
        break;
      }
      String size = new String(chunked, position, lineEnd, StandardCharsets.US_ASCII).trim();
      int length = Integer.parseInt(size.split(";")[0], 16);
      if (length == 0) {
        break;
      }
      position += lineEnd + 2;
      out.write(chunked, position, Math.min(length, chunked.length - position));
      position += length + 2;
    }
    return out.toByteArray();
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static boolean startsWith(byte[] value, String prefix) {
    return new String(value, StandardCharsets.ISO_8859_1).startsWith(prefix);
  }

  /** Bytes as readable text: printable ASCII as is, everything else escaped, cut at {@code max}. */
  static String printable(byte[] bytes, int max) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < bytes.length && text.length() < max; i++) {
      int b = bytes[i] & 0xff;
      text.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
    }
    return bytes.length > max ? text + "...(" + bytes.length + " bytes)" : text.toString();
  }
}
