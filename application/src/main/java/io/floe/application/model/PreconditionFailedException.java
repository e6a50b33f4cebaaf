package io.floe.application.model;

/** A conditional write whose precondition did not hold: nothing was written. */
public final class PreconditionFailedException extends RuntimeException {
  public PreconditionFailedException(String message) {
    super(message);
  }
}
