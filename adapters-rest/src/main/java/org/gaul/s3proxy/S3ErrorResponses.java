package org.gaul.s3proxy;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * Writes s3proxy's error documents for Floe's S3 endpoint. The handler reports an S3 error as an
 * exception whose code only its own package may read, and writes the document with a method only
 * its package may call: this class lives there for that alone, and exposes nothing else.
 */
public final class S3ErrorResponses {
  private S3ErrorResponses() {}

  /** Answers the S3 error the handler raised. */
  public static void send(S3ProxyHandler handler, HttpServletRequest request,
      HttpServletResponse response, S3Exception error) throws IOException {
    handler.sendSimpleErrorResponse(request, response, error.getError(), error.getMessage(),
        error.getElements());
  }

  /** Answers the S3 error named by its code (e.g. {@code AccessDenied}) with {@code message}. */
  public static void send(S3ProxyHandler handler, HttpServletRequest request,
      HttpServletResponse response, S3ErrorCode code, String message) throws IOException {
    handler.sendSimpleErrorResponse(request, response, code, message, Map.of());
  }
}
