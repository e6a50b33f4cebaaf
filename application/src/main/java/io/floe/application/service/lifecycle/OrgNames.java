package io.floe.application.service.lifecycle;

import io.floe.application.port.out.NameRegistry;
import io.floe.application.security.OrgContext;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import java.time.Instant;
import java.util.Locale;
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

  /**
   * Holds the name for the owner (a no-op if it holds it already); refuses when another does.
   * A soft-deleted holder is named as such: lookups and listings no longer show it, so a bare
   * "already exists" would contradict them; the refusal says how to restore it and when the name
   * frees up.
   */
  public void reserve(OrgContext context, CatalogName name, PrefixClaim.Owner owner) {
    names.reserve(context.org().id(), name, owner.kind(), owner.id())
        .filter(holder -> !holder.ownerId().equals(owner.id()))
        .ifPresent(holder -> {
          if (holder.restorableUntil().isPresent()) {
            throw new AlreadyExistsException("%s", deletedHolder(context, name, holder.kind(),
                holder.restorableUntil().get()));
          }
          throw holder.kind() == owner.kind()
              ? new AlreadyExistsException("%s already exists: %s", kindName(owner.kind()), name)
              : new AlreadyExistsException("Name '%s' is taken by a %s of this org", name,
                  holder.kind().name().toLowerCase(Locale.ROOT));
        });
  }

  private static String deletedHolder(OrgContext context, CatalogName name,
      PrefixClaim.OwnerKind kind, Instant restorableUntil) {
    boolean namespace = kind == PrefixClaim.OwnerKind.NAMESPACE;
    String org = context.org().name().value();
    String route = namespace ? "/orgs/" + org + "/iceberg/namespaces/" + name + "/restore"
        : "/orgs/" + org + "/repos/" + name + "/restore";
    String cli = (namespace ? "floe namespaces restore " : "floe repos restore ") + name;
    return "Name '" + name + "' belongs to a deleted " + (namespace ? "namespace" : "repo")
        + ", which can be restored until " + restorableUntil + " (POST " + route + ", or " + cli
        + "); the name frees up when that recovery period ends and the cleanup pass purges it";
  }

  private static String kindName(PrefixClaim.OwnerKind kind) {
    String lower = kind.name().toLowerCase(Locale.ROOT);
    return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
  }
}
