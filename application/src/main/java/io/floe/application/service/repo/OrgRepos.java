package io.floe.application.service.repo;

import io.floe.application.model.RepoDetails;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RepoStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Finds the repos a request is about and describes them. Until grants cover repos, only org
 * admins may use them.
 */
public final class OrgRepos {
  private final OrgStore orgs;
  private final RepoStore repos;
  private final AccessPolicy policy;

  public OrgRepos(OrgStore orgs, RepoStore repos, AccessPolicy policy) {
    this.orgs = orgs;
    this.repos = repos;
    this.policy = policy;
  }

  /** The live repo of that name, for an admin. */
  Repo requireLive(OrgContext context, String repo) {
    policy.requireRepoAccess(context);
    CatalogName name = parseName(repo);
    return repos.findLive(context.org().id(), name)
        .orElseThrow(() -> new NotFoundException("Repo does not exist: %s", name));
  }

  BucketConfig bucketOf(Repo repo) {
    return orgs.bucket(repo.location().bucketId()).orElseThrow(() -> new IllegalStateException(
        "repo " + repo.id() + " refers to a missing bucket configuration"));
  }

  RepoDetails details(Repo repo, Optional<Instant> restorableUntil) {
    BucketConfig bucket = bucketOf(repo);
    return new RepoDetails(repo, bucket, bucket.uriOf(repo.location().path()), restorableUntil);
  }

  static CatalogName parseName(String repo) {
    try {
      return new CatalogName(repo);
    } catch (InvalidNameException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
  }
}
