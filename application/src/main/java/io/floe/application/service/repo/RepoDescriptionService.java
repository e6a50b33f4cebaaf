package io.floe.application.service.repo;

import io.floe.application.model.CreateRepoCommand;
import io.floe.application.port.in.repo.DescribeRepoUseCase;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.out.RepoStore;
import io.floe.application.security.OrgContext;
import io.floe.domain.Repo;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Rewrites a live repo's description, with the limit a new repo's description has. Who may is
 * what {@link RepoDirectoryUseCase#get} decides for repos (admins, until grants cover repos).
 */
public final class RepoDescriptionService implements DescribeRepoUseCase {
  private final RepoDirectoryUseCase repos;
  private final RepoStore store;

  public RepoDescriptionService(RepoDirectoryUseCase repos, RepoStore store) {
    this.repos = repos;
    this.store = store;
  }

  @Override
  public RepoDetails describe(OrgContext context, String repo, Optional<String> description) {
    if (description.map(String::length).orElse(0) > CreateRepoCommand.MAX_DESCRIPTION_LENGTH) {
      throw new BadRequestException("A repo description may have at most %d characters",
          CreateRepoCommand.MAX_DESCRIPTION_LENGTH);
    }
    RepoDetails details = repos.get(context, repo);
    Repo current = details.repo();
    store.describe(current.id(), description);
    Repo described = new Repo(current.id(), current.orgId(), current.name(), current.location(),
        description, current.createdAt(), current.deletedAt());
    return new RepoDetails(described, details.bucket(), details.locationUri(),
        details.restorableUntil());
  }
}
