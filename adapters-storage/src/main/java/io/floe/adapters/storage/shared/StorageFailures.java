package io.floe.adapters.storage.shared;

import com.google.cloud.BaseServiceException;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StorageRefusedException;
import io.floe.application.port.out.StorageUnavailableException;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * What a failure of a storage client means for the request, decided in this one place for every
 * platform:
 *
 * <ul>
 *   <li>Unavailable, worth trying again ({@link StorageUnavailableException}, a 503): the
 *       connection could not be made or broke off (no address, nothing listens, a peer that does
 *       not speak HTTP, a timeout, the call's time bound spent), or the store answered that it
 *       is busy or failed inside (S3's {@code 503 SlowDown}, {@code 500 InternalError}, any 5xx,
 *       429).
 *   <li>Refused, not worth trying again ({@link StorageRefusedException}): the store answered
 *       that the server's own credentials, policy or configuration are wrong ({@code 403
 *       AccessDenied}, an unknown key, a bad signature, no such bucket, another region).
 *   <li>Anything else is a failure of the store ({@link StorageException}).
 * </ul>
 *
 * The messages name the bucket configuration and, for answers, the store's status and code,
 * never the store's host.
 */
public final class StorageFailures {
  /** S3 error codes that say the bucket configuration, not the moment, is at fault. */
  private static final Set<String> REFUSALS = Set.of("AccessDenied", "AllAccessDisabled",
      "InvalidAccessKeyId", "SignatureDoesNotMatch", "NoSuchBucket", "InvalidBucketName",
      "PermanentRedirect", "AuthorizationHeaderMalformed", "InvalidToken", "ExpiredToken",
      "AccountProblem", "InvalidSecurity", "IllegalLocationConstraintException");
  /** S3 error codes of a store that is busy or failed inside, whatever their status. */
  private static final Set<String> BUSY = Set.of("SlowDown", "InternalError",
      "ServiceUnavailable", "RequestTimeout", "Throttling", "ThrottlingException",
      "RequestLimitExceeded", "TooManyRequests");

  private StorageFailures() {}

  /** {@code failure} as the application's storage exception; {@code what} says what was tried. */
  public static StorageException of(BucketConfig bucket, String what, RuntimeException failure) {
    if (failure instanceof StorageException known) {
      return known;
    }
    Optional<Answer> answer = answerIn(failure);
    if (isUnreachable(failure) || answer.filter(Answer::busy).isPresent()) {
      String why = answer.filter(Answer::busy).map(a -> "it answered " + a + "; ")
          .orElse("");
      return new StorageUnavailableException("The storage of bucket configuration '"
          + bucket.nickname() + "' could not be used (" + what + "): " + why
          + "try again later", failure);
    }
    if (answer.filter(Answer::refusal).isPresent()) {
      return new StorageRefusedException("The storage of bucket configuration '"
          + bucket.nickname() + "' refused the server's own request (" + what + "): it answered "
          + answer.get() + ". Trying again will not help: the bucket configuration (its "
          + "credentials, the policy they have, the bucket it names) needs fixing", failure);
    }
    return new StorageException(what + " in " + bucket.uriOf(StoragePath.root())
        + ": " + failure.getMessage(), failure);
  }

  /**
   * Whether {@link #of} makes more of {@code failure} than a plain storage failure: the store
   * was unreachable, busy, or refused the server's configuration.
   */
  public static boolean isKnown(Throwable failure) {
    return isUnreachable(failure)
        || answerIn(failure).filter(a -> a.busy() || a.refusal()).isPresent();
  }

  /**
   * Whether the client never had an answer from the store: an I/O failure on the connection
   * somewhere in the causes, or the call's time bound spent. Files of the server's own disk that
   * are missing or unreadable are not that.
   */
  public static boolean isUnreachable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException && !(cause instanceof FileNotFoundException)
          && !(cause instanceof FileSystemException)) {
        return true;
      }
      if (cause instanceof ApiCallTimeoutException
          || cause instanceof ApiCallAttemptTimeoutException) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  /** What the store answered, the first answer among the causes. */
  private static Optional<Answer> answerIn(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof AwsServiceException aws) {
        String code = aws.awsErrorDetails() == null ? null : aws.awsErrorDetails().errorCode();
        return Optional.of(new Answer(aws.statusCode(), code));
      }
      if (cause instanceof BaseServiceException gcs && gcs.getCode() > 0) {
        return Optional.of(new Answer(gcs.getCode(), gcs.getReason()));
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }

  /** A store's answer: its HTTP status and error code (either may be missing). */
  private record Answer(int status, String code) {
    boolean busy() {
      return (code != null && BUSY.contains(code)) || status == 429 || status >= 500;
    }

    boolean refusal() {
      return !busy() && ((code != null && REFUSALS.contains(code))
          || status == 401 || status == 403 || status == 301);
    }

    @Override
    public String toString() {
      return status + (code == null || code.isBlank() ? "" : " " + code);
    }
  }
}
