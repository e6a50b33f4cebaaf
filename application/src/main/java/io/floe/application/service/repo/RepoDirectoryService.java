package io.floe.application.service.repo;

import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.out.RepoStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** An org's repos: one by name, the live ones, the restorable deleted ones. */
public final class RepoDirectoryService implements RepoDirectoryUseCase {
  private final OrgRepos orgRepos;
  private final RepoStore repos;
  private final AccessPolicy policy;
  private final Clock clock;

  public RepoDirectoryService(OrgRepos orgRepos, RepoStore repos, AccessPolicy policy,
      Clock clock) {
    this.orgRepos = orgRepos;
    this.repos = repos;
    this.policy = policy;
    this.clock = clock;
  }

  @Override
  public RepoDetails get(OrgContext context, String repo) {
    return orgRepos.details(orgRepos.requireLive(context, repo), Optional.empty());
  }

  @Override
  public List<RepoDetails> list(OrgContext context) {
    policy.requireAdmin(context, "list repos");
    return repos.listLive(context.org().id()).stream()
        .map(repo -> orgRepos.details(repo, Optional.empty())).toList();
  }

  @Override
  public List<RepoDetails> listDeleted(OrgContext context) {
    policy.requireAdmin(context, "list deleted repos");
    return repos.listRestorable(context.org().id(), clock.instant()).stream()
        .map(deleted -> orgRepos.details(deleted.repo(),
            Optional.of(deleted.restorableUntil()))).toList();
  }
}
