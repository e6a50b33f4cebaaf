package io.floe.application.service.repo;

import io.floe.application.port.in.repo.BrowseRepoUseCase;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.security.OrgContext;
import io.floe.domain.Repo;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import java.util.List;
import org.apache.iceberg.exceptions.BadRequestException;

/** Reads a repo's refs, history and nodes from its Icechunk repository. */
public final class RepoBrowsingService implements BrowseRepoUseCase {
  public static final int MAX_LOG_LIMIT = 10_000;

  private final OrgRepos orgRepos;
  private final IcechunkRepositories icechunk;

  public RepoBrowsingService(OrgRepos orgRepos, IcechunkRepositories icechunk) {
    this.orgRepos = orgRepos;
    this.icechunk = icechunk;
  }

  @Override
  public RepoRefs refs(OrgContext context, String repo) {
    Repo found = orgRepos.requireLive(context, repo);
    return icechunk.refs(orgRepos.bucketOf(found), found.location().path());
  }

  @Override
  public List<RepoCommit> log(OrgContext context, String repo, String ref, int limit) {
    if (limit < 1 || limit > MAX_LOG_LIMIT) {
      throw new BadRequestException("limit must be between 1 and %d, got %d", MAX_LOG_LIMIT,
          limit);
    }
    Repo found = orgRepos.requireLive(context, repo);
    return icechunk.log(orgRepos.bucketOf(found), found.location().path(), refOrDefault(ref),
        limit);
  }

  @Override
  public RepoNode node(OrgContext context, String repo, String ref, String path) {
    Repo found = orgRepos.requireLive(context, repo);
    return icechunk.node(orgRepos.bucketOf(found), found.location().path(), refOrDefault(ref),
        path == null || path.isBlank() ? "/" : path);
  }

  @Override
  public RepoTables tables(OrgContext context, String repo, String ref) {
    Repo found = orgRepos.requireLive(context, repo);
    return icechunk.tables(orgRepos.bucketOf(found), found.location().path(), refOrDefault(ref));
  }

  private static String refOrDefault(String ref) {
    return ref == null || ref.isBlank() ? DEFAULT_REF : ref;
  }
}
