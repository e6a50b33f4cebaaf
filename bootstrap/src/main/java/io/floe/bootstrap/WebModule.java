package io.floe.bootstrap;

import io.floe.adapters.rest.iceberg.TableUseCases;
import io.floe.adapters.rest.iceberg.ViewUseCases;
import io.floe.adapters.rest.web.WebApp;
import io.floe.adapters.rest.web.WebUseCases;
import io.floe.adapters.storage.rows.IcebergTableRows;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.service.access.WebSessionService;
import io.floe.application.service.table.BudgetedTablePreview;
import io.floe.application.service.table.TablePreviewService;
import io.floe.application.service.work.OrgWorkBudget;
import java.time.Clock;
import java.time.Duration;

/**
 * The wiring of the web app: its sessions (signed in with an API token or through the identity
 * provider) and the pages, on the same use cases as the APIs.
 */
final class WebModule {
  /** How long a web app session lasts at most (less when its API token expires sooner). */
  private static final Duration SESSION_LIFETIME = Duration.ofHours(12);

  final WebApp app;

  WebModule(Adapters adapters, ServerSettings settings, Clock clock, AccessModule access,
      OrgModule orgs, NamespaceModule namespaces, ViewUseCases views, TableUseCases tables,
      RepoModule repos, GetMaintenancePolicyUseCase maintenancePolicies, OrgWorkBudget heavyWork) {
    WebSessionService sessions = new WebSessionService(access.authentication,
        adapters.browserIdentityTokens(), adapters.identities(),
        adapters.principals(), adapters.webSessions(), adapters.ids(), clock, SESSION_LIFETIME);
    this.app = new WebApp(new WebUseCases(access.authentication, sessions, orgs.directory,
        namespaces.management, views.list(), tables.load(),
        new BudgetedTablePreview(new TablePreviewService(tables.load(), adapters.orgs(),
            adapters.storage(), new IcebergTableRows()), heavyWork),
        access.grants, access.members,
        access.teams, access.tokens, namespaces.buckets, repos.directory, repos.browsing,
        maintenancePolicies),
        settings.oidc());
  }
}
