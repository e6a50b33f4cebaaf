package io.floe.application.port.out.contract;

import io.floe.application.port.out.SoftDeleteStore;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** The soft-delete lifecycle of repos. */
public abstract class RepoSoftDeleteStoreContract extends SoftDeleteStoreContract<Repo> {
  @Override
  protected SoftDeleteStore<Repo> store() {
    return ports().repoDeletes();
  }

  @Override
  protected Repo newOwner(String name) {
    return fixture.repo(name);
  }

  @Override
  protected UUID id(Repo owner) {
    return owner.id();
  }

  @Override
  protected Optional<Repo> findLive(Repo owner) {
    return ports().repos().findLive(owner.orgId(), owner.name());
  }

  @Override
  protected Repo deleted(Repo repo, Instant deletedAt) {
    return new Repo(repo.id(), repo.orgId(), repo.name(), repo.location(), repo.description(),
        repo.createdAt(), Optional.of(deletedAt));
  }
}
