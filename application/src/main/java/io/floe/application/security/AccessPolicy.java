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
