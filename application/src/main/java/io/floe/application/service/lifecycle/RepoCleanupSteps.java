package io.floe.application.service.lifecycle;

import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import java.util.Optional;
import java.util.UUID;

/** The repos' cleanup: everything under the repo's prefix is its Icechunk repository's. */
public final class RepoCleanupSteps implements CleanupSteps<Repo> {
  private final NameRegistry names;
  private final PrefixClaimStore claims;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;

  public RepoCleanupSteps(NameRegistry names, PrefixClaimStore claims, OrgStore orgs,
      BucketStorageProvider storage) {
    this.names = names;
    this.claims = claims;
    this.orgs = orgs;
    this.storage = storage;
  }

  @Override
  public String kind() {
    return "repo";
  }

  @Override
  public UUID id(Repo repo) {
    return repo.id();
  }

  @Override
  public String describe(Repo repo) {
    return repo.name() + " at " + bucketOf(repo).uriOf(repo.location().path());
  }

  @Override
  public void releaseName(Repo repo) {
    // Repos deleted before this step was recorded freed their name at once without saying so
    // when the recovery period was zero: only the repo's own hold is released.
    names.releaseIfHeldBy(repo.orgId(), repo.name(), repo.id());
  }

  @Override
  public long empty(Repo repo) {
    return storage.open(bucketOf(repo)).deleteUnder(repo.location().path());
  }

  @Override
  public Optional<String> reasonToKeep(Repo repo) {
    return Optional.empty();
  }

  @Override
  public void releaseClaims(Repo repo) {
    claims.releaseAllOf(repo.id());
  }

  private BucketConfig bucketOf(Repo repo) {
    return orgs.bucket(repo.location().bucketId()).orElseThrow(() ->
        new IllegalStateException("bucket of repo " + repo.name() + " vanished"));
  }
}
