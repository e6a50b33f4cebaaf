package io.floe.domain;

/** The org has not been given a feature it tried to use. */
public final class FeatureDisabledException extends DomainException {
  public FeatureDisabledException(String message) {
    super(message);
  }
}
