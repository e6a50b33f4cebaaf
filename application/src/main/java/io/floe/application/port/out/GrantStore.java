package io.floe.application.port.out;

import io.floe.domain.Grant;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Grants at namespace and table grain. A principal holds the grants made to it and to every team
 * it is a member of.
 */
public interface GrantStore {
  /** A stored grant with what the management API shows about it. */
  record Entry(UUID id, UUID orgId, Grant grant, Instant createdAt) {
    public Entry {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(orgId, "orgId");
      Objects.requireNonNull(grant, "grant");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /** A stored grant with the names people know its principal and target by. */
  record Named(Entry entry, String principalName, String namespaceName,
      Optional<String> tableName) {
    public Named {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(principalName, "principalName");
      Objects.requireNonNull(namespaceName, "namespaceName");
      Objects.requireNonNull(tableName, "tableName");
    }
  }

  /**
   * The grants the principal holds, directly or through its teams, on the namespace itself or on
   * a table or view currently in it. Table grants report the table's current namespace.
   */
  List<Grant> heldWithin(UUID principalId, UUID namespaceId);

  /** Creates the grant, or changes the action of the one the principal has on that target. */
  Named save(Entry entry);

  /** The org's grants, optionally only those on one namespace or to one principal. */
  List<Named> list(UUID orgId, Optional<UUID> namespaceId, Optional<UUID> principalId);

  Optional<Named> find(UUID orgId, UUID grantId);

  boolean delete(UUID grantId);
}
