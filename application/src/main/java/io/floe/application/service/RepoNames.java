package io.floe.application.service;

import io.floe.application.port.out.NameRegistry;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/** Holds a name of the org's one set of names for a repo, on create and on restore alike. */
final class RepoNames {
  private final NameRegistry names;

  RepoNames(NameRegistry names) {
    this.names = names;
  }

  /** Holds the name for the repo; refuses when a namespace or another repo holds it. */
  void reserve(UUID orgId, CatalogName name, UUID repoId) {
    names.reserve(orgId, name, PrefixClaim.OwnerKind.REPO, repoId)
        .filter(holder -> !holder.ownerId().equals(repoId))
        .ifPresent(holder -> {
          throw new AlreadyExistsException(holder.kind() == PrefixClaim.OwnerKind.NAMESPACE
              ? "Name '%s' is taken by a namespace of this org" : "Repo already exists: %s", name);
        });
  }
}
