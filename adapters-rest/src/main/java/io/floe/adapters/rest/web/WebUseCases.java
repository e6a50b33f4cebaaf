package io.floe.adapters.rest.web;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.in.access.TokensUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.application.port.in.repo.BrowseRepoUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.port.in.table.PreviewTableUseCase;
import io.floe.application.port.in.view.ListViewsUseCase;
import java.util.Objects;

/**
 * The in-ports the web app drives: the very ones behind the management API and the Iceberg
 * REST catalog, so that pages decide nothing about access themselves.
 */
public record WebUseCases(
    AuthenticateUseCase authentication,
    WebSessionsUseCase sessions,
    OrgsUseCase orgs,
    NamespaceManagementUseCase namespaces,
    ListViewsUseCase views,
    LoadTableUseCase tables,
    PreviewTableUseCase previews,
    GrantsUseCase grants,
    MembersUseCase members,
    TeamsUseCase teams,
    TokensUseCase tokens,
    BucketManagementUseCase buckets,
    RepoDirectoryUseCase repos,
    BrowseRepoUseCase browseRepos,
    GetMaintenancePolicyUseCase maintenancePolicies) {

  public WebUseCases {
    Objects.requireNonNull(authentication, "authentication");
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(orgs, "orgs");
    Objects.requireNonNull(namespaces, "namespaces");
    Objects.requireNonNull(views, "views");
    Objects.requireNonNull(tables, "tables");
    Objects.requireNonNull(previews, "previews");
    Objects.requireNonNull(grants, "grants");
    Objects.requireNonNull(members, "members");
    Objects.requireNonNull(teams, "teams");
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(buckets, "buckets");
    Objects.requireNonNull(repos, "repos");
    Objects.requireNonNull(browseRepos, "browseRepos");
    Objects.requireNonNull(maintenancePolicies, "maintenancePolicies");
  }
}
