package io.floe.application.service.lifecycle;

import io.floe.application.port.out.NameRegistry;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import java.util.Locale;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * Holds names of the org's one set of names, shared by namespaces and repos and compared
 * case-insensitively: on create and on restore alike.
 */
public final class OrgNames {
  private final NameRegistry names;

  public OrgNames(NameRegistry names) {
    this.names = names;
  }

  /** Holds the name for the owner (a no-op if it holds it already); refuses when another does. */
  public void reserve(UUID orgId, CatalogName name, PrefixClaim.Owner owner) {
    names.reserve(orgId, name, owner.kind(), owner.id())
        .filter(holder -> !holder.ownerId().equals(owner.id()))
        .ifPresent(holder -> {
          throw holder.kind() == owner.kind()
              ? new AlreadyExistsException("%s already exists: %s", kindName(owner.kind()), name)
              : new AlreadyExistsException("Name '%s' is taken by a %s of this org", name,
                  holder.kind().name().toLowerCase(Locale.ROOT));
        });
  }

  private static String kindName(PrefixClaim.OwnerKind kind) {
    String lower = kind.name().toLowerCase(Locale.ROOT);
    return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
  }
}
