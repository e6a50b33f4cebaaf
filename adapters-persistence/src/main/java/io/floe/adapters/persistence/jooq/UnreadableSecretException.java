package io.floe.adapters.persistence.jooq;

/**
 * A sealed secret that cannot be opened: sealed with a key the server was not given, altered,
 * moved to another row, or not in the sealed form at all. The message says which.
 */
public final class UnreadableSecretException extends IllegalStateException {
  private final String keyId;

  UnreadableSecretException(String message, String keyId) {
    super(message);
    this.keyId = keyId;
  }

  /** The id of the key the value says it was sealed with; empty when it could not be read. */
  public String keyId() {
    return keyId;
  }
}
