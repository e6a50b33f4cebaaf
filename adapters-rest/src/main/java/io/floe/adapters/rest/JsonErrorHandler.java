package io.floe.adapters.rest;

import io.floe.adapters.rest.http.RetryAfter;
import io.floe.adapters.rest.iceberg.IcebergErrors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors the HTTP layer answers before any route runs (an illegal character in a header, a
 * request-target that is not a valid URI, one too long) in JSON instead of Jetty's HTML page.
 * Such a request may not have a usable path, so the body carries both error shapes. The same
 * goes for requests refused before a route for the server's sake (429, 503: see
 * {@link io.floe.adapters.rest.http.RequestThreads}).
 */
final class JsonErrorHandler extends ErrorHandler {
  /** Every method gets a body, not just GET, POST and HEAD as Jetty's default has it. */
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(Request request, Response response, int code, String message,
      Throwable cause, Callback callback) {
    String reason = message != null && !message.isBlank() ? message
        : HttpStatus.getMessage(code);
    String text = code >= 500 && code != 503 ? "Internal error" : reason;
    byte[] body = ErrorBodies.ofUnparsed(IcebergErrors.of(code, type(code), text))
        .getBytes(StandardCharsets.UTF_8);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    if (RetryAfter.applies(code)) {
      response.getHeaders().put(RetryAfter.HEADER, Integer.toString(RetryAfter.SECONDS));
    }
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  private static String type(int code) {
    return switch (code) {
      case 400 -> "BadRequestException";
      case 404 -> "NotFoundException";
      case 413 -> "RequestTooLargeException";
      case 414 -> "RequestUriTooLongException";
      case 429 -> "TooManyRequestsException";
      case 503 -> "ServiceUnavailableException";
      case 431 -> "RequestHeaderFieldsTooLargeException";
      default -> code >= 500 ? "InternalServerError" : "HttpException";
    };
  }
}
