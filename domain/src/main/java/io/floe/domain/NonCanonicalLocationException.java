package io.floe.domain;

/** A location is not in canonical form; the message says what is wrong with it. */
public class NonCanonicalLocationException extends DomainException {
  public NonCanonicalLocationException(String message) {
    super(message);
  }
}
