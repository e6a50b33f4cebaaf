package io.floe.application.security;

import io.floe.domain.Action;
import io.floe.domain.Namespace;
import io.floe.domain.Visibility;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Decides what a caller may do in its org. The one rule for refusals: what the caller cannot even
 * read is reported as not found (a 403 would reveal that it exists); what it can read but not
 * change is a 403.
 */
public final class AccessPolicy {

  /** Whether the caller may take {@code action} on the namespace. */
  public boolean allows(OrgContext context, Action action, Namespace namespace) {
    if (context.isAdmin()) {
      return true;
    }
    return action == Action.READ && namespace.visibility() == Visibility.AUTHENTICATED_PUBLIC;
  }

  public boolean canSee(OrgContext context, Namespace namespace) {
    return allows(context, Action.READ, namespace);
  }

  /**
   * The rule of {@link #canSee} for listings that filter in the store: must say yes to exactly the
   * namespaces {@code canSee} says yes to.
   */
  public ListingScope listingScope(OrgContext context) {
    return context.isAdmin() ? ListingScope.all()
        : new ListingScope(false, java.util.Set.of(Visibility.AUTHENTICATED_PUBLIC));
  }

  /** Every action the caller may take on the namespace, as listings report it. */
  public java.util.Set<Action> effectiveActions(OrgContext context, Namespace namespace) {
    java.util.Set<Action> actions = java.util.EnumSet.noneOf(Action.class);
    for (Action action : Action.values()) {
      if (allows(context, action, namespace)) {
        actions.add(action);
      }
    }
    return actions;
  }

  /**
   * Requires {@code action}; callers check visibility first, so a refusal here is a 403 about
   * something the caller may already know exists.
   */
  public void require(OrgContext context, Action action, Namespace namespace) {
    if (!allows(context, action, namespace)) {
      throw new ForbiddenException("Not allowed to %s in namespace %s",
          action.name().toLowerCase(java.util.Locale.ROOT), namespace.name());
    }
  }

  /** Org-wide changes such as creating namespaces need an admin for now. */
  public void requireAdmin(OrgContext context, String what) {
    if (!context.isAdmin()) {
      throw new ForbiddenException("Only org admins may %s", what);
    }
  }
}
