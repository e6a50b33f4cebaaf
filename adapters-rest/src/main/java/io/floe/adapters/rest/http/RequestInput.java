package io.floe.adapters.rest.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.floe.adapters.rest.s3.LocalBucketEndpoint;
import io.floe.domain.StorableText;
import io.javalin.http.ContentTooLargeResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpException;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The one check every request passes before a route sees it: its path segments, query
 * parameters and form fields are valid percent-encoded UTF-8, its body is valid UTF-8 (but for
 * the S3 endpoint's, which are objects), and none of it holds text that Floe cannot keep
 * ({@link StorableText}: a NUL or an unpaired surrogate), not even inside a JSON string or once
 * decoded. A violation is a 400 naming the path segment, the query parameter, the form field or
 * the JSON field.
 *
 * <p>Path and query are checked before any route runs. The body is read and checked once the
 * route has authenticated its caller ({@code RequestTracing.authenticated}), or when a route that
 * authenticates with the body itself (the web sign-in form) first asks for it ({@link #body}):
 * a client that has shown no valid credentials cannot hold a request thread by sending a body
 * slowly, and a body that is malformed, ends before the length it announced or arrives too slowly
 * is refused before the route acts on anything. The routes that take neither credentials nor a
 * body (the probes, the server's description) refuse a body from the headers, unread.
 */
public final class RequestInput {
  /** Bodies larger than this are refused with 413. */
  public static final long MAX_BODY_BYTES = 8L * 1024 * 1024;

  /** How much of a refused body Floe reads and discards so the client sees its 413. */
  static final long MAX_DISCARDED_BYTES = 64L * 1024 * 1024;

  /** How long Floe reads a refused body for its client's sake before it drops the connection. */
  static final Duration MAX_DISCARD_TIME = Duration.ofSeconds(5);

  private static final String BODY = "floe.request-body";
  /** Routes that take neither credentials nor a body. */
  private static final Set<String> BODILESS = Stream.concat(RequestThreads.PROBES.stream(),
      Stream.of("/")).collect(Collectors.toUnmodifiableSet());
  private static final JsonFactory JSON = new JsonFactory();

  private RequestInput() {}

  /** Refuses the request with a 400 when any part of its input breaks the rule. */
  public static void check(Context ctx) {
    String[] segments = ctx.req().getRequestURI().split("/", -1);
    for (int i = 1; i < segments.length; i++) {
      decode(segments[i], false, "the path segment '" + printable(segments[i]) + "'");
    }
    requireStorableParameters(ctx.queryString(), "query parameter");
    if (carriesObjects(ctx.path())) {
      // Object bytes, streamed by the S3 endpoint to storage: not text, and no size of ours.
      return;
    }
    refuseAnnouncedOversizedBody(ctx);
    if (BODILESS.contains(ctx.path()) && announcesBody(ctx)) {
      ctx.header("Connection", "close");
      throw new BadRequestException("%s takes no request body", ctx.path());
    }
  }

  /** The names and values of a query string or a form, each as it decodes. */
  private static void requireStorableParameters(String encoded, String kind) {
    if (encoded == null || encoded.isEmpty()) {
      return;
    }
    for (String parameter : encoded.split("&")) {
      String[] pair = parameter.split("=", 2);
      String name = decode(pair[0], true, "a " + kind + " name");
      if (pair.length == 2) {
        decode(pair[1], true, kind + " '" + printable(name) + "'");
      }
    }
  }

  private static boolean isForm(Context ctx) {
    String type = ctx.contentType();
    return type != null && type.toLowerCase(Locale.ROOT)
        .startsWith("application/x-www-form-urlencoded");
  }

  private static boolean announcesBody(Context ctx) {
    return ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null;
  }

  /** Whether {@code path} is the S3 endpoint's, whose bodies are objects. */
  private static boolean carriesObjects(String path) {
    return path.equals(LocalBucketEndpoint.PATH)
        || path.startsWith(LocalBucketEndpoint.PATH + "/");
  }

  /**
   * A body whose announced length is over the limit is refused without being kept. A client that
   * asked first ({@code Expect: 100-continue}) is refused from the headers and sends nothing. Any
   * other client is already sending, and a server that answers and closes while bytes are still
   * arriving makes the client's TCP stack reset the connection, which can discard the 413 before
   * the client reads it; so the rest of the body is read and thrown away first, up to
   * {@link #MAX_DISCARDED_BYTES}, and the client reads a clean 413 on a connection it may reuse.
   */
  private static void refuseAnnouncedOversizedBody(Context ctx) {
    long announced = ctx.req().getContentLengthLong();
    if (announced > MAX_BODY_BYTES) {
      if (!"100-continue".equalsIgnoreCase(ctx.header("Expect"))) {
        discardRestOfBody(ctx);
      }
      throw tooLarge("The request body of " + announced + " bytes");
    }
  }

  /**
   * The body, read up to the limit; a chunked body that goes past it is refused like above. A
   * body that stops arriving or arrives below the server's minimum data rate is a 408, and the
   * connection is closed: its framing can no longer be trusted.
   */
  private static byte[] boundedBody(Context ctx) {
    try {
      return ctx.bodyAsBytes();
    } catch (HttpResponseException e) {
      if (e.getStatus() != HttpStatus.CONTENT_TOO_LARGE.getCode()) {
        throw e;
      }
      discardRestOfBody(ctx);
      throw tooLarge("The request body");
    } catch (Exception e) { // IOException too: Javalin's Kotlin does not declare it
      if (!tooSlow(e)) {
        throw e;
      }
      ctx.header("Connection", "close");
      throw new HttpResponseException(HttpStatus.REQUEST_TIMEOUT.getCode(),
          "The request body arrived too slowly: Floe reads bodies at "
              + RequestThreads.MIN_BODY_BYTES_PER_SECOND + " bytes a second or faster, and waits "
              + RequestThreads.IDLE_TIMEOUT.toSeconds() + " seconds at most for the next byte");
    }
  }

  /** Whether reading failed because the client sent too slowly (or stopped sending). */
  private static boolean tooSlow(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof TimeoutException || cause instanceof HttpException http
          && http.getCode() == HttpStatus.REQUEST_TIMEOUT.getCode()) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private static ContentTooLargeResponse tooLarge(String body) {
    return new ContentTooLargeResponse(body + " is larger than the " + MAX_BODY_BYTES
        + " bytes Floe accepts");
  }

  private static void discardRestOfBody(Context ctx) {
    long discarded = 0;
    long deadline = System.nanoTime() + MAX_DISCARD_TIME.toNanos();
    byte[] buffer = new byte[64 * 1024];
    try {
      InputStream in = ctx.req().getInputStream();
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        discarded += n;
        if (discarded > MAX_DISCARDED_BYTES || System.nanoTime() - deadline > 0) {
          // Past this the client is not one to be polite to: answer and drop the connection.
          ctx.header("Connection", "close");
          return;
        }
      }
    } catch (IOException e) {
      // The client went away or broke its own framing; the answer is the same.
      ctx.header("Connection", "close");
    }
  }

  /**
   * The request body as checked text (empty when there is none), read on the first call: once the
   * caller is authenticated, or by a route that authenticates with the body (a sign-in form).
   */
  public static String body(Context ctx) {
    String body = ctx.attribute(BODY);
    if (body == null) {
      body = text(boundedBody(ctx), "the request body");
      requireStorableJson(body);
      if (isForm(ctx)) {
        requireStorableParameters(body, "form field");
      }
      ctx.attribute(BODY, body);
    }
    return body;
  }

  /** The request body's bytes, as {@link #body} read and checked them. */
  public static byte[] bodyBytes(Context ctx) {
    body(ctx);
    return ctx.bodyAsBytes();
  }

  /** Every string and field name of a JSON body; a body that is not JSON is its route's affair. */
  private static void requireStorableJson(String body) {
    String start = body.stripLeading();
    if (start.isEmpty() || "{[\"".indexOf(start.charAt(0)) < 0) {
      return;
    }
    try (JsonParser parser = JSON.createParser(body)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.FIELD_NAME || token == JsonToken.VALUE_STRING) {
          Optional<String> problem = StorableText.problem(parser.getText());
          if (problem.isPresent()) {
            // Where it is, only now: a pointer grows with the depth, and every string has one.
            String what = token == JsonToken.FIELD_NAME ? "a field name in the request body"
                : "field '" + printable(parser.getParsingContext().pathAsPointer().toString())
                    + "'";
            throw new BadRequestException("%s %s", what, problem.get());
          }
        }
      }
    } catch (IOException e) {
      // Not JSON after all: the route that reads the body says what is wrong with it.
    }
  }

  private static void require(String text, String what) {
    StorableText.problem(text).ifPresent(problem -> {
      throw new BadRequestException("%s %s", what, problem);
    });
  }

  /**
   * Percent-decodes {@code raw} as text under the rule, refusing a '%' without two hex digits
   * after it and bytes that are not UTF-8; in a query or a form, '+' is a space.
   */
  private static String decode(String raw, boolean query, String what) {
    if (raw.indexOf('%') < 0 && !(query && raw.indexOf('+') >= 0)) {
      require(raw, what);
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
        int low = high >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
        if (low < 0) {
          throw new BadRequestException("%s has a '%%' that is not followed by two hex digits",
              what);
        }
        bytes.write(high * 16 + low);
        i += 2;
      } else if (c == '+' && query) {
        bytes.write(' ');
      } else {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      }
    }
    return text(bytes.toByteArray(), what);
  }

  /** Bytes the request carried as text, by the rule every decoded value passes. */
  private static String text(byte[] bytes, String what) {
    try {
      return StorableText.fromUtf8(bytes, what);
    } catch (StorableText.InvalidTextException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
  }

  /** Untrusted text for a message: control characters and surrogates escaped, at most 80 long. */
  private static String printable(String text) {
    StringBuilder out = new StringBuilder();
    text.chars().limit(80).forEach(c -> {
      boolean visible = !Character.isISOControl(c) && !Character.isSurrogate((char) c);
      out.append(visible ? String.valueOf((char) c) : String.format("\\u%04x", c));
    });
    return text.length() > 80 ? out + "..." : out.toString();
  }
}
