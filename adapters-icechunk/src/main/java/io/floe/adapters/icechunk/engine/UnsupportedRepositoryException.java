package io.floe.adapters.icechunk.engine;

/**
 * The repository cannot be written by Floe: its spec version is one Floe only reads (or does not
 * know), or its status is read-only or offline.
 */
public class UnsupportedRepositoryException extends IcechunkException {
  public UnsupportedRepositoryException(String message) {
    super(message);
  }
}
