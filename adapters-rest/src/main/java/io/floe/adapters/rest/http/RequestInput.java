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
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The one check every request passes before a route sees it: its path segments and query
 * parameters are valid percent-encoded UTF-8, its body is valid UTF-8 (but for the S3 endpoint's,
 * which are objects), and none of it holds text
 * that Floe cannot keep ({@link StorableText}: a NUL or an unpaired surrogate), not even inside a
 * JSON string. A violation is a 400 naming the path segment, the query parameter or the JSON
 * field. The body is read here, whatever the route, so a body that ends before the length it
 * announced is refused before any route acts on it; routes take the checked text from
 * {@link #body}.
 */
public final class RequestInput {
  /** Bodies larger than this are refused with 413. */
  public static final long MAX_BODY_BYTES = 8L * 1024 * 1024;

  /** How much of a refused body Floe reads and discards so the client sees its 413. */
  static final long MAX_DISCARDED_BYTES = 64L * 1024 * 1024;

  private static final String BODY = "floe.request-body";
  private static final JsonFactory JSON = new JsonFactory();

  private RequestInput() {}

  /** Refuses the request with a 400 when any part of its input breaks the rule. */
  public static void check(Context ctx) {
    String[] segments = ctx.req().getRequestURI().split("/", -1);
    for (int i = 1; i < segments.length; i++) {
      String what = "the path segment '" + printable(segments[i]) + "'";
      require(decode(segments[i], false, what), what);
    }
    String query = ctx.queryString();
    if (query != null && !query.isEmpty()) {
      for (String parameter : query.split("&")) {
        String[] pair = parameter.split("=", 2);
        String name = decode(pair[0], true, "a query parameter name");
        require(name, "a query parameter name");
        if (pair.length == 2) {
          require(decode(pair[1], true, "query parameter '" + printable(name) + "'"),
              "query parameter '" + printable(name) + "'");
        }
      }
    }
    if (carriesObjects(ctx.path())) {
      // Object bytes, streamed by the S3 endpoint to storage: not text, and no size of ours.
      return;
    }
    refuseAnnouncedOversizedBody(ctx);
    String body = utf8(boundedBody(ctx));
    require(body, "the request body");
    requireStorableJson(body);
    ctx.attribute(BODY, body);
  }

  /** Whether {@code path} is the S3 endpoint's, whose bodies are objects. */
  private static boolean carriesObjects(String path) {
    return path.equals(LocalBucketEndpoint.PATH) || path.startsWith(LocalBucketEndpoint.PATH + "/");
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

  /** The body, read up to the limit; a chunked body that goes past it is refused like above. */
  private static byte[] boundedBody(Context ctx) {
    try {
      return ctx.bodyAsBytes();
    } catch (HttpResponseException e) {
      if (e.getStatus() != HttpStatus.CONTENT_TOO_LARGE.getCode()) {
        throw e;
      }
      discardRestOfBody(ctx);
      throw tooLarge("The request body");
    }
  }

  private static ContentTooLargeResponse tooLarge(String body) {
    return new ContentTooLargeResponse(body + " is larger than the " + MAX_BODY_BYTES
        + " bytes Floe accepts");
  }

  private static void discardRestOfBody(Context ctx) {
    long discarded = 0;
    byte[] buffer = new byte[64 * 1024];
    try {
      InputStream in = ctx.req().getInputStream();
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        discarded += n;
        if (discarded > MAX_DISCARDED_BYTES) {
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

  /** The request body as checked text (empty when there is none). */
  public static String body(Context ctx) {
    String body = ctx.attribute(BODY);
    return body != null ? body : "";
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
          String field = parser.getParsingContext().pathAsPointer().toString();
          require(parser.getText(), token == JsonToken.FIELD_NAME
              ? "a field name in the request body" : "field '" + printable(field) + "'");
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
   * Percent-decodes {@code raw} as UTF-8, refusing a '%' without two hex digits after it and
   * bytes that are not UTF-8; in a query, '+' is a space.
   */
  private static String decode(String raw, boolean query, String what) {
    if (raw.indexOf('%') < 0 && !(query && raw.indexOf('+') >= 0)) {
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
    try {
      return strictUtf8(bytes.toByteArray());
    } catch (CharacterCodingException e) {
      throw new BadRequestException("%s is not percent-encoded UTF-8", what);
    }
  }

  private static String utf8(byte[] body) {
    try {
      return strictUtf8(body);
    } catch (CharacterCodingException e) {
      throw new BadRequestException("The request body is not valid UTF-8");
    }
  }

  private static String strictUtf8(byte[] bytes) throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes)).toString();
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
