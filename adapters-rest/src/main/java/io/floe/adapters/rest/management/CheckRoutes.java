package io.floe.adapters.rest.management;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.model.CheckPage;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.check.CheckCatalogUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /orgs/{org}/check}: one page of a read-only check of the org's catalog against its
 * buckets, for its admins. Each page looks at about {@code limit} things; the next one starts at
 * {@code page_token}, the {@code next_page_token} of the page before, which is null once the check
 * is complete. A malformed parameter is a 400 naming it.
 */
public final class CheckRoutes implements Consumer<RoutesConfig> {
  public static final String PATH = "/orgs/{org}/check";

  /** One finding as the API shows it. */
  record FindingBody(String kind, String subject, String detail) {
    static FindingBody of(CheckFinding finding) {
      return new FindingBody(finding.kind().wireName(), finding.subject(), finding.detail());
    }
  }

  /** A page; {@code nextPageToken} is null on the last one. */
  record PageBody(List<FindingBody> findings, int checked, String nextPageToken) {
    static PageBody of(CheckPage page) {
      return new PageBody(page.findings().stream().map(FindingBody::of).toList(), page.checked(),
          page.next().map(CheckCursor::encode).orElse(null));
    }
  }

  private final AuthenticateUseCase authentication;
  private final CheckCatalogUseCase check;

  public CheckRoutes(AuthenticateUseCase authentication, CheckCatalogUseCase check) {
    this.authentication = authentication;
    this.check = check;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get(PATH, (Context ctx) -> {
      ManagementRequest r = new ManagementRequest(ctx, authentication);
      var scope = r.scope();
      QueryParams params = new QueryParams(ctx);
      r.ok(PageBody.of(check.check(scope, cursor(params), limit(params))));
    });
  }

  private static CheckCursor cursor(QueryParams params) {
    Optional<String> token = params.text("page_token").filter(raw -> !raw.isEmpty());
    try {
      return token.map(CheckCursor::decode).orElseGet(CheckCursor::start);
    } catch (RuntimeException e) {
      throw new BadRequestException("Invalid page_token: expected a next_page_token of a check");
    }
  }

  private static int limit(QueryParams params) {
    Optional<String> raw = params.text("limit").filter(value -> !value.isEmpty());
    try {
      int limit = raw.map(Integer::parseInt).orElse(CheckPage.DEFAULT_LIMIT);
      if (limit < 1 || limit > CheckPage.MAX_LIMIT) {
        throw new IllegalArgumentException();
      }
      return limit;
    } catch (RuntimeException e) {
      throw new BadRequestException("Invalid limit: expected a number from 1 to %d",
          CheckPage.MAX_LIMIT);
    }
  }
}
