package io.floe.adapters.rest.management;

import io.floe.application.model.AuditAction;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeEventPage;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedToken;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.events.ReadChangeEventsUseCase;
import io.floe.domain.StorableText;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /orgs/{org}/events?after=&limit=}: the org's change feed in the management API,
 * every kind of change (repos, principals, grants and tokens too), oldest first from the
 * position {@code after} (the {@code next} of the previous page, or an event's
 * {@code position}), optionally only one {@code action} or one {@code namespace}. A reader sees
 * the events it may read; a position older than the feed's retention is a 410.
 */
public final class EventFeedRoutes implements Consumer<RoutesConfig> {
  public static final String PATH = "/orgs/{org}/events";
  private static final int MAX_NAME_LENGTH = 1000;

  /** One event as the API shows it. */
  record EventBody(String position, String id, Instant recordedAt, String principalId,
      String principalName, String action, String targetKind, String targetName,
      Map<String, Object> details, String requestId, int requestEventCount) {
    static EventBody of(ChangeEvent event) {
      var entry = event.entry();
      return new EventBody(FeedToken.encode(event.position()), event.eventId().toString(),
          entry.recordedAt(), entry.principalId().toString(), entry.principalName(),
          entry.action(), entry.targetKind(), entry.targetName(), entry.details(),
          entry.requestId(), event.requestEventCount());
    }
  }

  /** A page; {@code next} is where to continue from, present on every page. */
  record PageBody(List<EventBody> events, String next) {
    static PageBody of(ChangeEventPage page) {
      return new PageBody(page.events().stream().map(EventBody::of).toList(),
          FeedToken.encode(page.next()));
    }
  }

  private final AuthenticateUseCase authentication;
  private final ReadChangeEventsUseCase events;

  public EventFeedRoutes(AuthenticateUseCase authentication, ReadChangeEventsUseCase events) {
    this.authentication = authentication;
    this.events = events;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get(PATH, (Context ctx) -> {
      ManagementRequest r = new ManagementRequest(ctx, authentication);
      var scope = r.scope();
      QueryParams params = new QueryParams(ctx);
      int limit = params.integer("limit", ReadChangeEventsUseCase.DEFAULT_LIMIT);
      r.ok(PageBody.of(events.read(scope, FeedToken.decode(ctx.queryParam("after")),
          filter(params), limit)));
    });
  }

  private static ChangeFilter filter(QueryParams params) {
    Optional<String> action = params.text("action").filter(raw -> !raw.isEmpty()).map(raw ->
        AuditAction.fromWireName(raw).map(AuditAction::wireName).orElseThrow(() ->
            new BadRequestException("Invalid action: expected the name of a change such as "
                + "table.commit")));
    Optional<String> namespace = params.text("namespace").filter(raw -> !raw.isEmpty())
        .map(raw -> {
          if (raw.length() > MAX_NAME_LENGTH || raw.chars().anyMatch(Character::isISOControl)
              || StorableText.problem(raw).isPresent()) {
            throw new BadRequestException("Invalid namespace: expected a namespace's name");
          }
          return raw;
        });
    return new ChangeFilter(action.map(Set::of).orElse(Set.of()), Set.of(),
        namespace.map(Set::of).orElse(Set.of()), Set.of(), Optional.empty());
  }
}
