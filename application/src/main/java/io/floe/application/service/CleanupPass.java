package io.floe.application.service;

import io.floe.application.port.in.RunCleanupUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import java.util.Optional;
import java.util.UUID;

/**
 * The whole cleanup pass: the namespaces' part (which first repairs unfinished creations of
 * namespaces and repos alike), then the repos'. One report for both, so operators and the
 * on-demand route see everything a pass did.
 */
public final class CleanupPass implements RunCleanupUseCase {
  private final NamespaceCleanup namespaces;
  private final RepoCleanup repos;
  private final AccessPolicy policy;

  public CleanupPass(NamespaceCleanup namespaces, RepoCleanup repos, AccessPolicy policy) {
    this.namespaces = namespaces;
    this.repos = repos;
    this.policy = policy;
  }

  @Override
  public CleanupReport runFor(OrgContext context) {
    policy.requireAdmin(context, "run the cleanup");
    return run(Optional.of(context.org().id()));
  }

  /** Runs a pass over every org, or over one. */
  public CleanupReport run(Optional<UUID> orgId) {
    CleanupReport namespaceReport = namespaces.run(orgId);
    RepoCleanup.Result repoResult = repos.run(orgId);
    return new CleanupReport(namespaceReport.creationsUndone(),
        namespaceReport.namespacesPurged(),
        namespaceReport.objectsDeleted() + repoResult.objectsDeleted(),
        namespaceReport.namespacesKept(), namespaceReport.failures() + repoResult.failures(),
        repoResult.purged());
  }
}
