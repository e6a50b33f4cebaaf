package io.floe.application.port.out.inmemory;

import io.floe.application.model.ListingScope;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.inmemory.InMemoryDatabase.GrantRow;
import io.floe.application.port.out.inmemory.InMemoryDatabase.TeamMember;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.Optional;
import java.util.UUID;

/**
 * The access policy's listing rules over the in-memory rows, so that listings filter before they
 * page, as the SQL adapter's conditions do.
 */
final class InMemoryAccess {
  private final InMemoryDatabase db;

  InMemoryAccess(InMemoryDatabase db) {
    this.db = db;
  }

  /** The grant is held by {@code principalId} or by a team it is a member of. */
  boolean heldBy(GrantRow grant, UUID principalId) {
    return grant.principalId().equals(principalId)
        || db.teamMembers.containsKey(new TeamMember(grant.principalId(), principalId));
  }

  /** The namespace a grant applies in now: its table's, for a table grant. */
  Optional<UUID> currentNamespace(GrantRow grant) {
    if (grant.tableId().isEmpty()) {
      return Optional.of(grant.namespaceId());
    }
    return db.objects.get(grant.tableId().get()).map(CatalogObject::namespaceId);
  }

  boolean inScope(Namespace namespace, ListingScope scope) {
    if (scope.everything() || scope.readableByAll().contains(namespace.visibility())) {
      return true;
    }
    return scope.grantee().filter(grantee -> db.grants.values().stream()
        .anyMatch(grant -> heldBy(grant, grantee)
            && currentNamespace(grant).equals(Optional.of(namespace.id()))))
        .isPresent();
  }

  /**
   * A listing in {@code scope} counts the object: every object of a namespace the caller may
   * read (readable by all, or granted as a whole), else only the objects granted to it.
   */
  boolean counts(CatalogObject object, Namespace namespace, ListingScope scope) {
    if (scope.everything() || scope.readableByAll().contains(namespace.visibility())) {
      return true;
    }
    return scope.grantee().filter(grantee -> db.grants.values().stream()
        .anyMatch(grant -> heldBy(grant, grantee) && (grant.tableId().isEmpty()
            ? grant.namespaceId().equals(namespace.id())
            : grant.tableId().get().equals(object.id()))))
        .isPresent();
  }

  boolean inScope(CatalogObject object, TableScope scope) {
    return scope.grantee().map(grantee -> db.grants.values().stream()
            .anyMatch(grant -> grant.tableId().equals(Optional.of(object.id()))
                && heldBy(grant, grantee)))
        .orElse(true);
  }
}
