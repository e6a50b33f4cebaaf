package io.floe.application.service.repo;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.DescribeRepoUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.out.RepoStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Repo;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Rewrites a live repo's description, with the limit a new repo's description has. Who may is
 * what {@link RepoDirectoryUseCase#get} decides for repos (admins, until grants cover repos).
 * The change is recorded in the audit log in its own transaction.
 */
public final class RepoDescriptionService implements DescribeRepoUseCase {
  private final RepoDirectoryUseCase repos;
  private final RepoStore store;
  private final ChangePublisher publisher;

  public RepoDescriptionService(RepoDirectoryUseCase repos, RepoStore store,
      ChangePublisher publisher) {
    this.repos = repos;
    this.store = store;
    this.publisher = publisher;
  }

  @Override
  public RepoDetails describe(OrgContext context, String repo, Optional<String> description) {
    if (description.map(String::length).orElse(0) > CreateRepoCommand.MAX_DESCRIPTION_LENGTH) {
      throw new BadRequestException("A repo description may have at most %d characters",
          CreateRepoCommand.MAX_DESCRIPTION_LENGTH);
    }
    RepoDetails details = repos.get(context, repo);
    Repo current = details.repo();
    // What happened to it, as for a namespace's: the log keeps no free text.
    publisher.publish(context, AuditedChange.of(AuditAction.REPO_UPDATE, AuditTarget.Kind.REPO,
        current.name()).with("description", description.isPresent() ? "changed" : "cleared"),
        () -> store.describe(current.id(), description));
    Repo described = new Repo(current.id(), current.orgId(), current.name(), current.location(),
        description, current.createdAt(), current.deletedAt());
    return new RepoDetails(described, details.bucket(), details.locationUri(),
        details.restorableUntil());
  }
}
