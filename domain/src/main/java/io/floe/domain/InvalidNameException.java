package io.floe.domain;

/** A namespace, repo, table or bucket name breaks the naming rules. */
public final class InvalidNameException extends DomainException {
  public InvalidNameException(String message) {
    super(message);
  }
}
