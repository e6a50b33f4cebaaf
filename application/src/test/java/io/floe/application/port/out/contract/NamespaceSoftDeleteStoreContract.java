package io.floe.application.port.out.contract;

import io.floe.application.port.out.SoftDeleteStore;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The soft-delete lifecycle of namespaces. A delete is a change of the namespace, so it also moves
 * its {@code updatedAt}.
 */
public abstract class NamespaceSoftDeleteStoreContract extends SoftDeleteStoreContract<Namespace> {
  @Override
  protected SoftDeleteStore<Namespace> store() {
    return ports().namespaceDeletes();
  }

  @Override
  protected Namespace newOwner(String name) {
    return fixture.namespace(name);
  }

  @Override
  protected UUID id(Namespace owner) {
    return owner.id();
  }

  @Override
  protected Optional<Namespace> findLive(Namespace owner) {
    return ports().namespaces().findLive(owner.orgId(), owner.name());
  }

  @Override
  protected Namespace deleted(Namespace ns, Instant deletedAt) {
    return new Namespace(ns.id(), ns.orgId(), ns.name(), ns.bucketId(), ns.prefix(),
        ns.properties(), ns.description(), ns.metadata(), ns.visibility(), ns.createdAt(),
        deletedAt, Optional.of(deletedAt));
  }
}
