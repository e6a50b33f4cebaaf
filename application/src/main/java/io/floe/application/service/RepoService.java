package io.floe.application.service;

import io.floe.application.port.in.CreateRepoCommand;
import io.floe.application.port.in.DeleteRepoCommand;
import io.floe.application.port.in.RepoDetails;
import io.floe.application.port.in.ReposUseCase;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RepoLifecycleStore;
import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.PrefixGenerator;
import io.floe.domain.Repo;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePlatform;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Repos of an org. A repo's name comes from the org's one set of names (shared with namespaces),
 * its prefix is claimed like a namespace's, and its Icechunk repository is initialized in the same
 * step, so a repo that exists always opens in an Icechunk client. Until grants cover repos, only
 * org admins may use them.
 */
public final class RepoService implements ReposUseCase {
  public static final int MAX_LOG_LIMIT = 10_000;

  private final OrgStore orgs;
  private final RepoStore repos;
  private final RepoLifecycleStore lifecycle;
  private final RepoCreation creation;
  private final NameRegistry names;
  private final IcechunkRepositories icechunk;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final Duration recoveryPeriod;
  private final PrefixGenerator prefixes;

  public RepoService(OrgStore orgs, RepoStore repos, RepoLifecycleStore lifecycle,
      RepoCreation creation, NameRegistry names, IcechunkRepositories icechunk,
      UnitOfWork unitOfWork, IdGenerator ids, Clock clock, AccessPolicy policy,
      Duration recoveryPeriod) {
    this.orgs = orgs;
    this.repos = repos;
    this.lifecycle = lifecycle;
    this.creation = creation;
    this.names = names;
    this.icechunk = icechunk;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.recoveryPeriod = recoveryPeriod;
    this.prefixes = new PrefixGenerator(ids::randomBelow);
  }

  @Override
  public RepoDetails create(OrgContext context, CreateRepoCommand command) {
    policy.requireAdmin(context, "create repos");
    BucketConfig bucket = chooseBucket(context, command.bucketNickname());
    boolean clientWrites = command.initializer() == CreateRepoCommand.Initializer.CLIENT;
    if (clientWrites && bucket.platform() == StoragePlatform.LOCAL) {
      throw new BadRequestException("Repo '%s' would be on bucket '%s', a directory of the Floe "
          + "server that clients cannot write to, so a client cannot create it there. Let Floe "
          + "create it (POST /orgs/%s/repos without create_mode=register, or 'floe repos create'), "
          + "or put it on an object-store bucket", command.name(), bucket.nickname(),
          context.org().name());
    }
    Repo repo = new Repo(ids.newId(), context.org().id(), command.name(),
        new StorageLocation(bucket.id(), prefixes.repoPrefix(bucket, command.name())),
        command.description(), clock.instant(), Optional.empty());
    return details(creation.create(context, bucket, repo, !clientWrites), bucket,
        Optional.empty());
  }

  @Override
  public RepoDetails get(OrgContext context, String repo) {
    Repo found = requireLive(context, repo);
    return details(found, bucketOf(found), Optional.empty());
  }

  @Override
  public List<RepoDetails> list(OrgContext context) {
    policy.requireAdmin(context, "list repos");
    return repos.listLive(context.org().id()).stream()
        .map(repo -> details(repo, bucketOf(repo), Optional.empty())).toList();
  }

  @Override
  public List<RepoDetails> listDeleted(OrgContext context) {
    policy.requireAdmin(context, "list deleted repos");
    return repos.listRestorable(context.org().id(), clock.instant()).stream()
        .map(deleted -> details(deleted.repo(), bucketOf(deleted.repo()),
            Optional.of(deleted.restorableUntil()))).toList();
  }

  @Override
  public void delete(OrgContext context, String repo, DeleteRepoCommand command) {
    unitOfWork.inTransaction(() -> {
      Repo found = requireLive(context, repo);
      Instant now = clock.instant();
      // Without a recovery period nothing can be restored, so the name is free at once; the
      // prefix and the files stay claimed until a cleanup pass removes them.
      boolean releaseName = command.immediate() || recoveryPeriod.isZero();
      Instant purgeAfter = command.immediate() ? now : now.plus(recoveryPeriod);
      lifecycle.markDeleted(found.id(), now, purgeAfter, command.retainData(), releaseName);
      if (releaseName) {
        names.releaseIfHeldBy(context.org().id(), found.name(), found.id());
      }
    });
  }

  @Override
  public RepoDetails restore(OrgContext context, String repo) {
    policy.requireAdmin(context, "restore repos");
    CatalogName name = parseName(repo);
    Repo restored = unitOfWork.inTransaction(() -> {
      RepoStore.DeletedRepo deleted = repos.findRestorable(context.org().id(), name,
          clock.instant()).orElseThrow(() -> new NotFoundException(
              "No deleted repo '%s' can be restored: it does not exist or its recovery period "
                  + "is over", name));
      // The name normally stayed held by the deleted repo; reserving again is then a no-op.
      creation.reserveName(deleted.repo());
      repos.markRestored(deleted.repo().id());
      return deleted.repo();
    });
    Repo live = new Repo(restored.id(), restored.orgId(), restored.name(), restored.location(),
        restored.description(), restored.createdAt(), Optional.empty());
    return details(live, bucketOf(live), Optional.empty());
  }

  @Override
  public RepoRefs refs(OrgContext context, String repo) {
    Repo found = requireLive(context, repo);
    return icechunk.refs(bucketOf(found), found.location().path());
  }

  @Override
  public List<RepoCommit> log(OrgContext context, String repo, String ref, int limit) {
    if (limit < 1 || limit > MAX_LOG_LIMIT) {
      throw new BadRequestException("limit must be between 1 and %d, got %d", MAX_LOG_LIMIT,
          limit);
    }
    Repo found = requireLive(context, repo);
    return icechunk.log(bucketOf(found), found.location().path(), refOrDefault(ref), limit);
  }

  @Override
  public RepoNode node(OrgContext context, String repo, String ref, String path) {
    Repo found = requireLive(context, repo);
    return icechunk.node(bucketOf(found), found.location().path(), refOrDefault(ref),
        path == null || path.isBlank() ? "/" : path);
  }

  private Repo requireLive(OrgContext context, String repo) {
    policy.requireAdmin(context, "use repos");
    CatalogName name = parseName(repo);
    return repos.findLive(context.org().id(), name)
        .orElseThrow(() -> new NotFoundException("Repo does not exist: %s", name));
  }

  private BucketConfig chooseBucket(OrgContext context, Optional<CatalogName> nickname) {
    return nickname.map(given -> orgs.bucket(context.org().id(), given).orElseThrow(() ->
            new BadRequestException("Bucket configuration '%s' does not exist in org '%s'", given,
                context.org().name())))
        .orElseGet(() -> orgs.defaultBucket(context.org().id()).orElseThrow(() ->
            new BadRequestException("Org '%s' has no default bucket configuration; name one "
                + "with bucket_nickname", context.org().name())));
  }

  private BucketConfig bucketOf(Repo repo) {
    return orgs.bucket(repo.location().bucketId()).orElseThrow(() -> new IllegalStateException(
        "repo " + repo.id() + " refers to a missing bucket configuration"));
  }

  private static RepoDetails details(Repo repo, BucketConfig bucket,
      Optional<Instant> restorableUntil) {
    return new RepoDetails(repo, bucket, bucket.uriOf(repo.location().path()), restorableUntil);
  }

  private static CatalogName parseName(String repo) {
    try {
      return new CatalogName(repo);
    } catch (InvalidNameException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
  }

  private static String refOrDefault(String ref) {
    return ref == null || ref.isBlank() ? DEFAULT_REF : ref;
  }
}
