package io.floe.application.port.out;

/** Object storage could not do what was asked; the message names the object and the reason. */
public class StorageException extends RuntimeException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageException(String message) {
    super(message);
  }
}
