package io.floe.adapters.rest.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.floe.domain.StorableText;
import io.javalin.http.ContentTooLargeResponse;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The one check every request passes before a route sees it: its path segments and query
 * parameters are valid percent-encoded UTF-8, its body is valid UTF-8, and none of it holds text
 * that Floe cannot keep ({@link StorableText}: a NUL or an unpaired surrogate), not even inside a
 * JSON string. A violation is a 400 naming the path segment, the query parameter or the JSON
 * field. The body is read here, whatever the route, so a body that ends before the length it
 * announced is refused before any route acts on it; routes take the checked text from
 * {@link #body}.
 */
public final class RequestInput {
  /** Bodies larger than this are refused with 413. */
  public static final long MAX_BODY_BYTES = 8L * 1024 * 1024;

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
    refuseAnnouncedOversizedBody(ctx);
    String body = utf8(ctx.bodyAsBytes());
    require(body, "the request body");
    requireStorableJson(body);
    ctx.attribute(BODY, body);
  }

  /**
   * A body whose announced length is over the limit is refused before it is read. Opening the
   * body first would answer a client's {@code Expect: 100-continue} with "send it", and the 413
   * would then race the upload it cuts off: the client may see the connection close instead.
   */
  private static void refuseAnnouncedOversizedBody(Context ctx) {
    long announced = ctx.req().getContentLengthLong();
    if (announced > MAX_BODY_BYTES) {
      throw new ContentTooLargeResponse("The request body of " + announced
          + " bytes is larger than the " + MAX_BODY_BYTES + " bytes Floe accepts");
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
