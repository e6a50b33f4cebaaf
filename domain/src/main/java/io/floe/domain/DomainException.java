package io.floe.domain;

/** A rule of the model was broken; the message says which rule, in words a user understands. */
public class DomainException extends RuntimeException {
  public DomainException(String message) {
    super(message);
  }
}
