package io.floe.application.service.repo;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.RepoLifecycleUseCase;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.lifecycle.OrgNames;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.lifecycle.PrefixOwnerCreation;
import io.floe.application.service.lifecycle.SoftDeletion;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.PrefixGenerator;
import io.floe.domain.Repo;
import io.floe.domain.StorageLocation;
import java.time.Clock;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Creates repos (the Icechunk repository is initialized in the same crash-safe steps as the claim,
 * so a repo that exists always opens in an Icechunk client), and deletes and restores them like
 * namespaces.
 */
public final class RepoLifecycleService implements RepoLifecycleUseCase {
  private final OrgRepos orgRepos;
  private final OrgStore orgs;
  private final RepoStore repos;
  private final SoftDeleteStore<Repo> softDeletes;
  private final PrefixOwnerCreation creation;
  private final SoftDeletion deletion;
  private final OrgNames names;
  private final IcechunkRepositories icechunk;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;
  private final PrefixGenerator prefixes;

  public RepoLifecycleService(OrgRepos orgRepos, OrgStore orgs, RepoStore repos,
      SoftDeleteStore<Repo> softDeletes, PrefixOwnerCreation creation, SoftDeletion deletion,
      OrgNames names, IcechunkRepositories icechunk, UnitOfWork unitOfWork, IdGenerator ids,
      Clock clock, AccessPolicy policy, ChangePublisher publisher) {
    this.orgRepos = orgRepos;
    this.orgs = orgs;
    this.repos = repos;
    this.softDeletes = softDeletes;
    this.creation = creation;
    this.deletion = deletion;
    this.names = names;
    this.icechunk = icechunk;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.publisher = publisher;
    this.prefixes = new PrefixGenerator(ids::randomBelow);
  }

  @Override
  public RepoDetails create(OrgContext context, CreateRepoCommand command) {
    policy.requireAdmin(context, "create repos");
    BucketConfig bucket = chooseBucket(context, command.bucketNickname());
    // A client writes the repository itself: on a local bucket through Floe's S3 endpoint, with
    // the credentials Floe vends for the repo's prefix.
    boolean clientWrites = command.initializer() == CreateRepoCommand.Initializer.CLIENT;
    Repo repo = new Repo(ids.newId(), context.org().id(), command.name(),
        new StorageLocation(bucket.id(), prefixes.repoPrefix(bucket, command.name())),
        command.description(), clock.instant(), Optional.empty());
    creation.create(context, new PrefixOwnerCreation.NewOwner(
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, repo.id()), repo.orgId(),
            repo.name(), bucket, repo.location().path(), repo.createdAt(), !clientWrites),
        () -> icechunk.create(bucket, repo.location().path(), PrefixClaimer.MARKER),
        () -> repos.insert(repo), null);
    return orgRepos.details(repo, Optional.empty());
  }

  @Override
  public void delete(OrgContext context, String repo, DeleteCommand command) {
    unitOfWork.inTransaction(() -> {
      Repo found = orgRepos.requireLive(context, repo);
      publisher.publish(context, AuditedChange.of(AuditAction.REPO_DELETE, AuditTarget.Kind.REPO,
              found.name())
          .with("immediate", command.immediate()).with("retain_data", command.retainData()),
          () -> deletion.delete(softDeletes, context.org().id(), found.id(), found.name(),
              command));
    });
  }

  @Override
  public RepoDetails restore(OrgContext context, String repo) {
    policy.requireAdmin(context, "restore repos");
    CatalogName name = OrgRepos.parseName(repo);
    Repo restored = unitOfWork.inTransaction(() -> {
      RepoStore.DeletedRepo deleted = repos.findRestorable(context.org().id(), name,
          clock.instant()).orElseThrow(() -> new NotFoundException(
              "No deleted repo '%s' can be restored: it does not exist or its recovery period "
                  + "is over", name));
      publisher.publish(context, AuditedChange.of(AuditAction.REPO_RESTORE,
          AuditTarget.Kind.REPO, deleted.repo().name()), () -> {
            // The name normally stayed held by the deleted repo; reserving again is a no-op then.
            names.reserve(context, name,
                new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, deleted.repo().id()));
            repos.markRestored(deleted.repo().id());
          });
      return deleted.repo();
    });
    Repo live = new Repo(restored.id(), restored.orgId(), restored.name(), restored.location(),
        restored.description(), restored.createdAt(), Optional.empty());
    return orgRepos.details(live, Optional.empty());
  }

  private BucketConfig chooseBucket(OrgContext context, Optional<CatalogName> nickname) {
    return nickname.map(given -> orgs.bucket(context.org().id(), given).orElseThrow(() ->
            new BadRequestException("Bucket configuration '%s' does not exist in org '%s'", given,
                context.org().name())))
        .orElseGet(() -> orgs.defaultBucket(context.org().id()).orElseThrow(() ->
            new BadRequestException("Org '%s' has no default bucket configuration; name one "
                + "with bucket_nickname", context.org().name())));
  }
}
