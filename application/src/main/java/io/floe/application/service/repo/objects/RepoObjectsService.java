package io.floe.application.service.repo.objects;

import io.floe.application.port.in.repo.RepoObjectsUseCase;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.OrgStore;
import io.floe.domain.StoragePlatform;
import java.util.Optional;

/**
 * Opens the session of a set of credentials Floe vended for a repo on a local bucket: checks the
 * access key id ({@link LocalRepoCredentials}), finds its bucket, and confines every operation to
 * the repo's prefix ({@link ConfinedRepoObjects}).
 */
public final class RepoObjectsService implements RepoObjectsUseCase {
  private final LocalRepoCredentials credentials;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;

  public RepoObjectsService(LocalRepoCredentials credentials, OrgStore orgs,
      BucketStorageProvider storage) {
    this.credentials = credentials;
    this.orgs = orgs;
    this.storage = storage;
  }

  @Override
  public Optional<RepoObjectSession> session(String accessKeyId) {
    return credentials.open(accessKeyId).flatMap(grant -> orgs.bucket(grant.bucketId())
        .filter(bucket -> bucket.platform() == StoragePlatform.LOCAL)
        .flatMap(storage::streaming)
        .map(objects -> new ConfinedRepoObjects(objects, grant.prefix(), grant.access(),
            credentials.secretOf(accessKeyId))));
  }
}
