package io.floe.application.model;

/**
 * A reader asked to continue from a position older than the feed's retention: the events after
 * it may no longer all be served, so it must start again (410 Gone).
 */
public final class ChangeEventsExpiredException extends RuntimeException {
  public ChangeEventsExpiredException(String message) {
    super(message);
  }
}
