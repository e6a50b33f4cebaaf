package io.floe.application.model;

import java.util.List;
import java.util.Objects;

/**
 * A page of the feed: the events the reader may see, and the position to continue from (after
 * the last event looked at, seen or not; where the reader started when there was nothing new).
 */
public record ChangeEventPage(List<ChangeEvent> events, FeedPosition next) {
  public ChangeEventPage {
    events = List.copyOf(events);
    Objects.requireNonNull(next, "next");
  }
}
