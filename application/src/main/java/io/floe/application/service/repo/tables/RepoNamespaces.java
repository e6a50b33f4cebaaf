package io.floe.application.service.repo.tables;

import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RepoContentNotFoundException;
import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.RepoVersions;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import io.floe.domain.RepoRefs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the repo versions engines address as namespaces ({@link RepoNamespaceName}), for callers
 * who may use repos; for everyone else, and for refs that do not exist, there is no such
 * namespace.
 */
public final class RepoNamespaces {
  private static final Logger LOG = LoggerFactory.getLogger(RepoNamespaces.class);
  private final RepoStore repos;
  private final OrgStore orgs;
  private final RepoVersions versions;
  private final IcechunkRepositories icechunk;
  private final AccessPolicy policy;

  public RepoNamespaces(RepoStore repos, OrgStore orgs, RepoVersions versions,
      IcechunkRepositories icechunk, AccessPolicy policy) {
    this.repos = repos;
    this.orgs = orgs;
    this.versions = versions;
    this.icechunk = icechunk;
    this.policy = policy;
  }

  /** The repo version {@code namespace} names, as of now, if the caller may use it. */
  public Optional<RepoNamespace> find(OrgContext context, Namespace namespace) {
    if (!policy.mayUseRepos(context)) {
      return Optional.empty();
    }
    return RepoNamespaceName.parse(namespace).flatMap(name ->
        repos.findLive(context.org().id(), name.repo()).flatMap(repo -> {
          BucketConfig bucket = bucketOf(repo);
          try {
            return Optional.of(new RepoNamespace(repo, bucket, namespace,
                versions.read(bucket, repo.location().path(), name.ref())));
          } catch (RepoContentNotFoundException e) {
            return Optional.empty();
          }
        }));
  }

  /** {@link #find}, or the "no such namespace" of a namespace that is not there. */
  public RepoNamespace require(OrgContext context, Namespace namespace) {
    return find(context, namespace).orElseThrow(() ->
        new NoSuchNamespaceException("Namespace does not exist: %s", namespace));
  }

  /** Whether the namespace can only be a repo version (it holds an '@'). */
  public static boolean isVersioned(Namespace namespace) {
    return RepoNamespaceName.isVersioned(namespace);
  }

  /**
   * The namespaces the caller's repos offer, sorted by name: each repo, and each of its other
   * branches and its tags as {@code <repo>@<ref>}. Snapshot ids are addressable, not listed.
   */
  public List<String> names(OrgContext context) {
    if (!policy.mayUseRepos(context)) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (Repo repo : repos.listLive(context.org().id())) {
      names.add(repo.name().value());
      RepoRefs refs;
      try {
        refs = icechunk.refs(bucketOf(repo), repo.location().path());
      } catch (RuntimeException unreadable) {
        // One repo whose storage cannot be read (an endpoint down, a repo not yet written) must
        // not hide every other namespace: it is listed by name, its branches and tags are not.
        LOG.warn("listing namespaces: the refs of repo {} cannot be read: {}", repo.name(),
            unreadable.getMessage());
        continue;
      }
      refs.branches().stream().map(RepoRefs.Pointer::name)
          .filter(branch -> !branch.equals(RepoNamespaceName.DEFAULT_BRANCH))
          .forEach(branch -> names.add(RepoNamespaceName.of(repo.name(), branch)));
      refs.tags().forEach(tag -> names.add(RepoNamespaceName.of(repo.name(), tag.name())));
    }
    names.sort(String.CASE_INSENSITIVE_ORDER);
    return names;
  }

  private BucketConfig bucketOf(Repo repo) {
    return orgs.bucket(repo.location().bucketId()).orElseThrow(() -> new IllegalStateException(
        "repo " + repo.id() + " refers to a missing bucket configuration"));
  }
}
