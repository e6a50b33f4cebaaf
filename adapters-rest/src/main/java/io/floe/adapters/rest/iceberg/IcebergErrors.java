package io.floe.adapters.rest.iceberg;

import io.floe.application.model.ChangeEventsExpiredException;
import io.floe.application.model.TooBusyException;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StorageRefusedException;
import io.floe.application.port.out.StorageUnavailableException;
import io.floe.domain.DomainException;
import io.floe.domain.FeatureDisabledException;
import io.javalin.http.HttpResponseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.eclipse.jetty.http.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that decides which HTTP status and Iceberg error type an exception becomes. Every
 * error leaves the server in the Iceberg error model: {@code {"error": {message, type, code}}}.
 * Only exceptions that stand for a client's mistake carry their message to the client, and those
 * of a 503 (the database, a provider or a bucket's store unreachable, a needed worker down:
 * nothing written, retry; a store is named by its bucket configuration, never its host), and
 * those of a store that refused the server's own configuration (a 403 whose message says the
 * bucket configuration needs fixing);
 * anything else is a 500 that says nothing but the request's id. A commit whose outcome stayed
 * unknown is a 500 of type {@code CommitStateUnknownException}, as the Iceberg REST specification
 * has it.
 */
public final class IcebergErrors {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergErrors.class);

  /** Most specific first: the first matching class decides. */
  private static final Map<Class<? extends Exception>, Integer> STATUS = new LinkedHashMap<>();

  static {
    STATUS.put(NotAuthorizedException.class, 401);
    STATUS.put(ForbiddenException.class, 403);
    STATUS.put(FeatureDisabledException.class, 403);
    STATUS.put(RefusedLocationException.class, 403);
    STATUS.put(StorageRefusedException.class, 403);
    STATUS.put(NoSuchWarehouseException.class, 404);
    STATUS.put(NoSuchNamespaceException.class, 404);
    STATUS.put(NoSuchTableException.class, 404);
    STATUS.put(NoSuchViewException.class, 404);
    STATUS.put(NotFoundException.class, 404);
    STATUS.put(NoSuchPlanIdException.class, 404);
    STATUS.put(NoSuchPlanTaskException.class, 404);
    STATUS.put(ChangeEventsExpiredException.class, 410);
    STATUS.put(NamespaceNotEmptyException.class, 409);
    STATUS.put(AlreadyExistsException.class, 409);
    STATUS.put(CommitFailedException.class, 409);
    STATUS.put(UnprocessableEntityException.class, 422);
    STATUS.put(TooBusyException.class, 429);
    STATUS.put(BadRequestException.class, 400);
    STATUS.put(ValidationException.class, 400);
    STATUS.put(IllegalArgumentException.class, 400);
    STATUS.put(DomainException.class, 400);
    STATUS.put(UnsupportedOperationException.class, 406);
    STATUS.put(ServiceUnavailableException.class, 503);
    STATUS.put(StorageUnavailableException.class, 503);
    STATUS.put(CommitStateUnknownException.class, 500);
    STATUS.put(StorageException.class, 500);
  }

  private IcebergErrors() {}

  /**
   * The answer to a request that failed with {@code error}. A 5xx says only that an internal
   * error happened and the request's id; what happened goes to the log under that id, never to
   * the caller (it may quote SQL, paths of the host or a stack).
   */
  public static ErrorResponse toResponse(Exception error, String requestId) {
    Optional<HttpException> unreadable = httpCause(error);
    if (unreadable.isPresent()) {
      // The HTTP layer could not read the request, e.g. a body that ended before its length.
      LOG.debug("request {} could not be read: {}", requestId, unreadable.get().getReason());
      return of(unreadable.get().getCode(), "BadRequestException",
          "The request could not be read: " + unreadable.get().getReason());
    }
    if (error instanceof HttpResponseException refused && refused.getStatus() < 500) {
      // Refused by the HTTP layer of a route (e.g. a body too slow or too large): its words.
      LOG.debug("request {} refused with {}: {}", requestId, refused.getStatus(),
          refused.getMessage());
      return of(refused.getStatus(), httpType(refused.getStatus()), refused.getMessage());
    }
    int status = statusOf(error);
    if (error instanceof StorageUnavailableException unavailable) {
      // Names the bucket configuration, never its host: the caller may try again.
      LOG.warn("request {}: {} ({})", requestId, unavailable.getMessage(),
          String.valueOf(unavailable.getCause()));
      return of(status, "ServiceUnavailableException", unavailable.getMessage());
    }
    if (error instanceof StorageRefusedException refused) {
      // The store refused the server's own credentials or configuration: nothing was written
      // and retrying will not help. A 403 in Iceberg's error model, whose clients give up and
      // clean up (a 5xx would leave a commit's outcome unknown); the message says whose fault.
      LOG.warn("request {}: {} ({})", requestId, refused.getMessage(),
          String.valueOf(refused.getCause()));
      return of(status, "ForbiddenException", refused.getMessage());
    }
    if (status == 503) {
      // Nothing was written and the client may retry: a line, not a stack trace per request.
      LOG.warn("request {} answered 503: {}", requestId, error.getMessage());
      return of(status, "ServiceUnavailableException", error.getMessage());
    }
    if (status >= 500) {
      LOG.error("request {} failed", requestId, error);
      String type = error instanceof CommitStateUnknownException
          ? "CommitStateUnknownException" : "InternalServerError";
      return of(status, type, "Internal error; request id " + requestId);
    }
    LOG.debug("request {} refused with {}: {}", requestId, status, error.getMessage());
    String type = status == 403 || status == 429 ? httpType(status)
        : error.getClass().getSimpleName();
    return of(status, type, error.getMessage());
  }

  /** The Iceberg error type of a status the HTTP layer answers with. */
  public static String httpType(int status) {
    return switch (status) {
      case 400 -> "BadRequestException";
      case 401 -> "NotAuthorizedException";
      case 403 -> "ForbiddenException";
      case 404 -> "NotFoundException";
      case 408 -> "RequestTimeoutException";
      case 413 -> "RequestTooLargeException";
      case 429 -> "TooManyRequestsException";
      default -> "HttpException";
    };
  }

  public static ErrorResponse of(int status, String type, String message) {
    return ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
  }

  /** A client error the HTTP layer raised while reading the request, wherever it is wrapped. */
  private static Optional<HttpException> httpCause(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
        return Optional.of(http);
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }

  /** The status an exception becomes, without logging it. */
  public static int statusOf(Exception error) {
    if (error instanceof HttpResponseException refused) {
      return refused.getStatus();
    }
    for (Map.Entry<Class<? extends Exception>, Integer> entry : STATUS.entrySet()) {
      if (entry.getKey().isInstance(error)) {
        return entry.getValue();
      }
    }
    return 500;
  }
}
