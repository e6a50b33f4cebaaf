package io.floe.application.service.repo;

import io.floe.application.port.in.repo.OpenRepoUseCase;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.security.OrgContext;
import io.floe.application.service.repo.objects.LocalRepoCredentials;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.Map;
import java.util.Optional;

/**
 * Opens a repo for a client that reads and writes its Icechunk repository itself: the repo as
 * {@link RepoDirectoryUseCase#get} finds it for this caller (admins only, until grants cover repos), with
 * read-write credentials scoped to the repo's prefix: the cloud's, vended by the bucket's
 * platform, or for a local bucket Floe's own, which its S3 endpoint accepts.
 */
public final class RepoOpeningService implements OpenRepoUseCase {
  private final RepoDirectoryUseCase repos;
  private final CredentialVendor vendor;
  private final LocalRepoCredentials local;

  public RepoOpeningService(RepoDirectoryUseCase repos, CredentialVendor vendor,
      LocalRepoCredentials local) {
    this.repos = repos;
    this.vendor = vendor;
    this.local = local;
  }

  @Override
  public RepoAccess open(OrgContext context, String repo) {
    RepoDetails details = repos.get(context, repo);
    StoragePath prefix = details.repo().location().path();
    Optional<CredentialVendor.VendedCredentials> credentials =
        details.bucket().platform() == StoragePlatform.LOCAL
            ? Optional.of(local.issue(details.bucket(), prefix, Access.READ_WRITE,
                context.caller().principal().id()))
            : vendor.vend(details.bucket(), prefix, Access.READ_WRITE,
                context.caller().principal().name());
    return credentials.map(vended -> new RepoAccess(details, vended.config(),
            Optional.of(vended.expiresAt())))
        .orElseGet(() -> new RepoAccess(details, Map.of(), Optional.empty()));
  }
}
