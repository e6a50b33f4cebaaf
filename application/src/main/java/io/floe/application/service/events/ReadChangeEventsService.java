package io.floe.application.service.events;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeEventPage;
import io.floe.application.model.ChangeEventsExpiredException;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.port.in.events.ReadChangeEventsUseCase;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.security.OrgContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Reads a page of the feed for one reader: what it may see ({@link EventVisibility}) of what
 * matches its filter, within the feed's retention. A page looks at no more than
 * {@link #MAX_SCANNED} events, so a reader who may see few of many still gets an answer soon:
 * possibly an empty page, with the position to continue from.
 */
public final class ReadChangeEventsService implements ReadChangeEventsUseCase {
  static final int MAX_SCANNED = 5_000;

  private final ChangeFeed feed;
  private final EventVisibility visibility;
  private final Clock clock;
  private final Duration retention;

  public ReadChangeEventsService(ChangeFeed feed, EventVisibility visibility, Clock clock,
      Duration retention) {
    this.feed = feed;
    this.visibility = visibility;
    this.clock = clock;
    this.retention = retention;
  }

  @Override
  public ChangeEventPage read(OrgContext context, FeedPosition after, ChangeFilter filter,
      int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequestException("The page size must be between 1 and %d, got %d", MAX_LIMIT,
          limit);
    }
    Instant now = clock.instant();
    Instant notBefore = now.minus(retention);
    if (!after.isStart() && after.recordedAt().isBefore(notBefore)) {
      throw new ChangeEventsExpiredException("The continuation token is older than the event "
          + "retention (" + retention + "); start again without one");
    }
    Predicate<ChangeEvent> visible = visibility.forReader(context, filter);
    List<ChangeEvent> page = new ArrayList<>();
    FeedPosition next = after;
    int scanned = 0;
    while (page.size() < limit && scanned < MAX_SCANNED) {
      int wanted = Math.min(limit - page.size(), MAX_SCANNED - scanned);
      List<ChangeEvent> batch = feed.after(context.org().id(), next, filter, notBefore, wanted);
      for (ChangeEvent event : batch) {
        next = event.position();
        if (visible.test(event)) {
          page.add(event);
        }
      }
      scanned += batch.size();
      if (batch.size() < wanted) {
        // The reader is up to date: its position is as fresh as now, whatever it last saw.
        next = new FeedPosition(next.transaction(), next.sequence(), now);
        break;
      }
    }
    return new ChangeEventPage(page, next);
  }
}
