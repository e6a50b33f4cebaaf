package io.floe.adapters.icechunk.engine;

/** A repository, object, ref or node that was asked for does not exist. */
public class IcechunkNotFoundException extends IcechunkException {
  public IcechunkNotFoundException(String message) {
    super(message);
  }
}
