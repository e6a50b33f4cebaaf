package io.floe.adapters.storage.shared;

import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StorageUnavailableException;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileSystemException;

/**
 * What a failure of a storage client means for the request, decided in this one place for every
 * platform: a connection that could not be made or broke off (the host has no address, nothing
 * listens, the peer does not speak HTTP, a timeout) is storage that is unavailable, answered 503
 * with a message naming the bucket configuration; anything else is a failure of the store.
 */
public final class StorageFailures {
  private StorageFailures() {}

  /** {@code failure} as the application's storage exception; {@code what} says what was tried. */
  public static StorageException of(BucketConfig bucket, String what, RuntimeException failure) {
    if (failure instanceof StorageException known) {
      return known;
    }
    if (isUnreachable(failure)) {
      return new StorageUnavailableException("The storage of bucket configuration '"
          + bucket.nickname() + "' could not be reached (" + what + "): try again later",
          failure);
    }
    return new StorageException(what + " in " + bucket.uriOf(StoragePath.root())
        + ": " + failure.getMessage(), failure);
  }

  /**
   * Whether the client never had an answer from the store: an I/O failure on the connection
   * somewhere in the causes. Files of the server's own disk that are missing or unreadable are
   * not that.
   */
  public static boolean isUnreachable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException && !(cause instanceof FileNotFoundException)
          && !(cause instanceof FileSystemException)) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }
}
