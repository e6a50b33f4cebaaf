package io.floe.adapters.icechunk.engine;

/** Base of the errors this adapter raises about repositories (not about damaged files). */
public class IcechunkException extends RuntimeException {
  public IcechunkException(String message) {
    super(message);
  }

  public IcechunkException(String message, Throwable cause) {
    super(message, cause);
  }
}
