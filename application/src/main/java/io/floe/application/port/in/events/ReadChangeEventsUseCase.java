package io.floe.application.port.in.events;

import io.floe.application.model.ChangeEventPage;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.security.OrgContext;

/** Following an org's committed changes: the events after a position the reader reached. */
public interface ReadChangeEventsUseCase {
  int MAX_LIMIT = 1000;
  int DEFAULT_LIMIT = 100;

  /**
   * Up to {@code limit} events after {@code after} that match {@code filter} and that the caller
   * may read, in feed order, and the position to continue from. A position older than the
   * feed's retention is refused ({@code ChangeEventsExpiredException}).
   */
  ChangeEventPage read(OrgContext context, FeedPosition after, ChangeFilter filter, int limit);
}
