package io.floe.application.service;

import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.PendingCreationStore.Pending;
import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Repo;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Creates repos in the namespaces' three steps, so that a failure or a crash at any point leaves
 * either a whole repo or, once repaired, nothing: (1) one transaction reserves the name, claims
 * the prefix and journals the creation; (2) the marker and the new Icechunk repository are
 * written under the prefix; (3) one transaction inserts the repo and removes the journal row. A
 * failure undoes steps 1 and 2 at once; a crash leaves the journal row, and with it the claim on
 * whatever step 2 wrote, for {@link CreationRepair}. A repo its client initializes skips step 2:
 * Icechunk only creates a repository in an empty prefix, so Floe leaves it empty for the client.
 */
public final class RepoCreation {
  private final RepoStore repos;
  private final RepoNames names;
  private final PrefixClaimer claimer;
  private final PendingCreationStore pending;
  private final CreationRepair repair;
  private final IcechunkRepositories icechunk;
  private final UnitOfWork unitOfWork;
  private final LifecycleProbe probe;

  public RepoCreation(RepoStore repos, NameRegistry names,
      PrefixClaimer claimer, PendingCreationStore pending, CreationRepair repair,
      IcechunkRepositories icechunk, UnitOfWork unitOfWork, LifecycleProbe probe) {
    this.repos = repos;
    this.names = new RepoNames(names);
    this.claimer = claimer;
    this.pending = pending;
    this.repair = repair;
    this.icechunk = icechunk;
    this.unitOfWork = unitOfWork;
    this.probe = probe;
  }

  /** Creates the repo; {@code initialize} says whether Floe writes its Icechunk repository. */
  public Repo create(OrgContext context, BucketConfig bucket, Repo repo, boolean initialize) {
    Pending journal = new Pending(repo.id(), repo.orgId(), PrefixClaim.OwnerKind.REPO,
        repo.name(), bucket.id(), repo.location().path(), repo.createdAt());
    unitOfWork.inTransaction(() -> {
      names.reserve(repo.orgId(), repo.name(), repo.id());
      claimer.reserve(bucket, new PrefixClaim(bucket.id(), repo.location().path(),
          new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, repo.id())));
      pending.record(journal);
    });
    probe.reached("repo-create:claimed");
    try {
      if (initialize) {
        claimer.writeMarker(bucket, repo.location().path(), marker(context, repo));
        icechunk.create(bucket, repo.location().path(), PrefixClaimer.MARKER);
        probe.reached("repo-create:initialized");
      }
      unitOfWork.inTransaction(() -> {
        if (!pending.finish(repo.id())) {
          throw new CommitStateUnknownException(new IllegalStateException(
              "the creation of repo " + repo.name() + " was undone by a repair pass"));
        }
        repos.insert(repo);
      });
    } catch (RuntimeException e) {
      repair.undoQuietly(journal, e);
      throw e;
    }
    return repo;
  }

  /** Holds the repo's name again, as a restore needs; refuses when someone else took it. */
  void reserveName(Repo repo) {
    names.reserve(repo.orgId(), repo.name(), repo.id());
  }

  private static String marker(OrgContext context, Repo repo) {
    return "{\"kind\":\"repo\",\"org\":\"" + context.org().name() + "\",\"id\":\"" + repo.id()
        + "\",\"created_at\":\"" + repo.createdAt() + "\"}\n";
  }
}
