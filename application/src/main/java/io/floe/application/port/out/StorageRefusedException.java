package io.floe.application.port.out;

/**
 * The store answered, and refused the server's own request for a reason that trying again will
 * not fix: the bucket configuration's credentials or policy (access denied, an unknown key, a
 * signature the store rejects) or what it names (a bucket the store does not have, another
 * region). Nothing was written; an administrator must fix the bucket configuration. The message
 * names the configuration and the store's error code, never its host.
 */
public class StorageRefusedException extends StorageException {
  public StorageRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
