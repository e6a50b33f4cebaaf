package io.floe.application.port.out;

/**
 * Object storage did not answer: a bucket's host could not be resolved or reached, or the
 * connection failed. Nothing was done there, so the request may be tried again; the message
 * names the bucket configuration and never its host's details.
 */
public class StorageUnavailableException extends StorageException {
  public StorageUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageUnavailableException(String message) {
    super(message);
  }
}
