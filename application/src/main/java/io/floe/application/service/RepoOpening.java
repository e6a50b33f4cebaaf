package io.floe.application.service;

import io.floe.application.port.in.OpenRepoUseCase;
import io.floe.application.port.in.RepoDetails;
import io.floe.application.port.in.ReposUseCase;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.security.OrgContext;
import java.util.Map;
import java.util.Optional;

/**
 * Opens a repo for a client that reads and writes its Icechunk repository itself: the repo as
 * {@link ReposUseCase#get} finds it for this caller (admins only, until grants cover repos), with
 * read-write credentials scoped to the repo's prefix.
 */
public final class RepoOpening implements OpenRepoUseCase {
  private final ReposUseCase repos;
  private final CredentialVendor vendor;

  public RepoOpening(ReposUseCase repos, CredentialVendor vendor) {
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
