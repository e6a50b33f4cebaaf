package io.floe.application.service.repo;

import io.floe.application.port.in.repo.OpenRepoUseCase;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.security.OrgContext;
import java.util.Map;
import java.util.Optional;

/**
 * Opens a repo for a client that reads and writes its Icechunk repository itself: the repo as
 * {@link RepoDirectoryUseCase#get} finds it for this caller (admins only, until grants cover repos), with
 * read-write credentials scoped to the repo's prefix.
 */
public final class RepoOpeningService implements OpenRepoUseCase {
  private final RepoDirectoryUseCase repos;
  private final CredentialVendor vendor;

  public RepoOpeningService(RepoDirectoryUseCase repos, CredentialVendor vendor) {
    this.repos = repos;
    this.vendor = vendor;
  }

  @Override
  public RepoAccess open(OrgContext context, String repo) {
    RepoDetails details = repos.get(context, repo);
    return vendor.vend(details.bucket(), details.repo().location().path(), Access.READ_WRITE,
            context.caller().principal().name())
        .map(vended -> new RepoAccess(details, vended.config(), Optional.of(vended.expiresAt())))
        .orElseGet(() -> new RepoAccess(details, Map.of(), Optional.empty()));
  }
}
