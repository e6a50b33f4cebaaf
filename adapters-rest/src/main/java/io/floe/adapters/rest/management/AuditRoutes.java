package io.floe.adapters.rest.management;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditTarget;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.audit.AuditLogUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /orgs/{org}/audit}: the org's audit log for its admins, newest first, filtered by
 * {@code principal}, {@code action}, {@code target_kind}, {@code target}, {@code since} and
 * {@code until}, {@code limit} entries a page, the next page found with {@code page_token}. A
 * malformed parameter is a 400 naming it.
 */
public final class AuditRoutes implements Consumer<RoutesConfig> {
  public static final String PATH = "/orgs/{org}/audit";
  /** Instants PostgreSQL can store; anything outside is refused before it gets there. */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");
  private static final int MAX_TARGET_LENGTH = 1000;

  /** One entry as the API shows it. */
  record EntryBody(String id, Instant recordedAt, String principalId, String principalName,
      String action, String targetKind, String targetName, Map<String, Object> details,
      String requestId) {
    static EntryBody of(AuditEntry entry) {
      return new EntryBody(Long.toString(entry.id()), entry.recordedAt(),
          entry.principalId().toString(), entry.principalName(), entry.action(),
          entry.targetKind(), entry.targetName(), entry.details(), entry.requestId());
    }
  }

  /** A page; {@code nextPageToken} is null on the last one. */
  record PageBody(List<EntryBody> entries, String nextPageToken) {
    static PageBody of(AuditPage page) {
      return new PageBody(page.entries().stream().map(EntryBody::of).toList(),
          page.nextBefore().isPresent() ? Long.toString(page.nextBefore().getAsLong()) : null);
    }
  }

  private final AuthenticateUseCase authentication;
  private final AuditLogUseCase audit;

  public AuditRoutes(AuthenticateUseCase authentication, AuditLogUseCase audit) {
    this.authentication = authentication;
    this.audit = audit;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get(PATH, (Context ctx) -> {
      ManagementRequest r = new ManagementRequest(ctx, authentication);
      var scope = r.scope();
      r.ok(PageBody.of(audit.list(scope, query(new QueryParams(ctx)))));
    });
  }

  static AuditQuery query(QueryParams params) {
    return new AuditQuery(
        param(params, "principal", raw -> UUID.fromString(raw), "a principal id"),
        param(params, "action", raw -> AuditAction.fromWireName(raw).orElseThrow(),
            "one of " + names(AuditAction.values(), AuditAction::wireName)),
        param(params, "target_kind", raw -> AuditTarget.Kind.fromWireName(raw).orElseThrow(),
            "one of " + names(AuditTarget.Kind.values(), AuditTarget.Kind::wireName)),
        param(params, "target", AuditRoutes::targetName, "a name of at most "
            + MAX_TARGET_LENGTH + " printable characters"),
        param(params, "since", AuditRoutes::instant, "an ISO-8601 time such as "
            + "2026-01-31T12:00:00Z"),
        param(params, "until", AuditRoutes::instant, "an ISO-8601 time such as "
            + "2026-01-31T12:00:00Z"),
        param(params, "page_token", AuditRoutes::pageToken, "a next_page_token of this listing")
            .map(OptionalLong::of).orElse(OptionalLong.empty()),
        param(params, "limit", Integer::parseInt, "a number from 1 to " + AuditQuery.MAX_LIMIT)
            .orElse(AuditQuery.DEFAULT_LIMIT));
  }

  /** The parameter read by {@code parse}; anything {@code parse} refuses is a 400 naming it. */
  private static <T> Optional<T> param(QueryParams params, String name, Function<String, T> parse,
      String expected) {
    Optional<String> raw = params.text(name).filter(value -> !value.isEmpty());
    try {
      return raw.map(parse);
    } catch (RuntimeException e) {
      throw new BadRequestException("Invalid %s: expected %s", name, expected);
    }
  }

  private static String targetName(String raw) {
    if (raw.length() > MAX_TARGET_LENGTH || raw.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException();
    }
    return raw;
  }

  private static Instant instant(String raw) {
    Instant instant;
    try {
      instant = Instant.parse(raw);
    } catch (DateTimeParseException e) {
      instant = OffsetDateTime.parse(raw).toInstant();
    }
    if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
      throw new IllegalArgumentException();
    }
    return instant;
  }

  private static long pageToken(String raw) {
    long before = Long.parseLong(raw);
    if (before < 1) {
      throw new IllegalArgumentException();
    }
    return before;
  }

  private static <T> String names(T[] values, Function<T, String> name) {
    return Arrays.stream(values).map(name).collect(Collectors.joining(", "));
  }
}
