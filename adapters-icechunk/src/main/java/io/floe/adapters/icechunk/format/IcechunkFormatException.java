package io.floe.adapters.icechunk.format;

/**
 * An Icechunk object could not be understood: the message names the object (its key in the
 * repository) and what was wrong with it.
 */
public class IcechunkFormatException extends RuntimeException {
  public IcechunkFormatException(String message) {
    super(message);
  }

  public IcechunkFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
