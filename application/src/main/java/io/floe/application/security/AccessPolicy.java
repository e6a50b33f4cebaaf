package io.floe.application.security;

import io.floe.application.model.ListingScope;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.GrantStore;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import io.floe.domain.Namespace;
import io.floe.domain.OrgName;
import io.floe.domain.Visibility;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Decides what a caller may do in its org; the only place that does. Org admins may do
 * everything; {@code AUTHENTICATED_PUBLIC} namespaces are readable by every member; everything
 * else comes from grants on a namespace or on one table, held directly or through a team.
 *
 * <p>The one rule for refusals: what the caller cannot even read is reported as not found (a 403
 * would reveal that it exists); what it can read but not change is a 403.
 */
public final class AccessPolicy {
  private final GrantStore grants;

  public AccessPolicy(GrantStore grants) {
    this.grants = Objects.requireNonNull(grants, "grants");
  }

  /** Whether the caller may take {@code action} on the namespace as a whole. */
  public boolean allows(OrgContext context, Action action, Namespace namespace) {
    return withoutGrant(context, action, namespace)
        || held(context, namespace).stream()
            .anyMatch(grant -> grant.allows(action, namespace.id(), Optional.empty()));
  }

  /**
   * Whether the caller may take {@code action} on one table or view: through the namespace, or
   * through a grant on that very object (never on a neighbour).
   */
  public boolean allows(OrgContext context, Action action, Namespace namespace,
      CatalogObject object) {
    return withoutGrant(context, action, namespace)
        || held(context, namespace).stream()
            .anyMatch(grant -> grant.allows(action, namespace.id(), Optional.of(object.id())));
  }

  /**
   * Whether the namespace exists for the caller: it may read it, or it holds a grant on a table
   * in it (and then sees only those tables).
   */
  public boolean canSee(OrgContext context, Namespace namespace) {
    return withoutGrant(context, Action.READ, namespace) || !held(context, namespace).isEmpty();
  }

  /** Whether the table or view exists for the caller. */
  public boolean canSee(OrgContext context, Namespace namespace, CatalogObject object) {
    return allows(context, Action.READ, namespace, object);
  }

  /**
   * The rule of {@link #canSee(OrgContext, Namespace)} for listings that filter in the store:
   * must say yes to exactly the namespaces {@code canSee} says yes to.
   */
  public ListingScope listingScope(OrgContext context) {
    if (context.caller().scope().isPresent()) {
      // A maintenance job's token lists nothing: it works on the one table it names.
      return new ListingScope(false, Set.of(), Optional.empty());
    }
    return context.isAdmin() ? ListingScope.all()
        : new ListingScope(false, Set.of(Visibility.AUTHENTICATED_PUBLIC),
            Optional.of(context.caller().principal().id()));
  }

  /** The rule of {@link #canSee(OrgContext, Namespace, CatalogObject)} for table listings. */
  public TableScope tableScope(OrgContext context, Namespace namespace) {
    if (context.caller().scope().isPresent()) {
      return TableScope.grantedTo(context.caller().principal().id());
    }
    return allows(context, Action.READ, namespace) ? TableScope.all()
        : TableScope.grantedTo(context.caller().principal().id());
  }

  /** Every action the caller may take on the namespace, as listings report it. */
  public Set<Action> effectiveActions(OrgContext context, Namespace namespace) {
    Set<Action> actions = EnumSet.noneOf(Action.class);
    for (Action action : Action.values()) {
      if (allows(context, action, namespace)) {
        actions.add(action);
      }
    }
    return actions;
  }

  /** Every action the caller may take on one table or view, as listings report it. */
  public Set<Action> effectiveActions(OrgContext context, Namespace namespace,
      CatalogObject object) {
    Set<Action> actions = EnumSet.noneOf(Action.class);
    for (Action action : Action.values()) {
      if (allows(context, action, namespace, object)) {
        actions.add(action);
      }
    }
    return actions;
  }

  /**
   * Requires {@code action} on the namespace; callers check visibility first, so a refusal here
   * is a 403 about something the caller may already know exists.
   */
  public void require(OrgContext context, Action action, Namespace namespace) {
    if (!allows(context, action, namespace)) {
      throw new ForbiddenException("Not allowed to %s in namespace %s", verb(action),
          namespace.name());
    }
  }

  /** Requires {@code action} on one table or view the caller can already see. */
  public void require(OrgContext context, Action action, Namespace namespace,
      CatalogObject object) {
    if (!allows(context, action, namespace, object)) {
      throw new ForbiddenException("Not allowed to %s %s.%s", verb(action), namespace.name(),
          object.name().value());
    }
  }

  /**
   * Whether the caller may use the org's repos and the tables they declare: org admins, until
   * grants cover repos. For everyone else a repo does not exist.
   */
  public boolean mayUseRepos(OrgContext context) {
    return context.isAdmin();
  }

  /** {@link #mayUseRepos}, or a 403 for a caller who asked for repos by their routes. */
  public void requireRepoAccess(OrgContext context) {
    if (!mayUseRepos(context)) {
      throw new ForbiddenException("Only org admins may use repos");
    }
  }

  /**
   * Whether the caller may read bucket configurations (names, prefixes, endpoints, the kind of
   * credentials, roles assumed, local directories): admins only. Members know buckets by nickname
   * and platform.
   */
  public boolean mayReadBucketConfigurations(OrgContext context) {
    return context.isAdmin();
  }

  /** Org-wide changes such as creating namespaces or managing principals need an admin. */
  public void requireAdmin(OrgContext context, String what) {
    if (!context.isAdmin()) {
      throw new ForbiddenException("Only org admins may %s", what);
    }
  }

  /**
   * Server-wide changes (creating orgs, switching an org's feature flags) need an operator: an
   * admin of the server's bootstrap org. {@code inBootstrapOrg} is the caller's membership there,
   * empty when it has none.
   */
  public boolean isOperator(Optional<OrgContext> inBootstrapOrg, OrgName bootstrapOrg) {
    return inBootstrapOrg
        .filter(context -> context.org().name().equals(bootstrapOrg))
        .filter(OrgContext::isAdmin)
        .isPresent();
  }

  /** Requires an operator; a refusal is a 403, which reveals nothing about the target org. */
  public void requireOperator(Optional<OrgContext> inBootstrapOrg, OrgName bootstrapOrg,
      String what) {
    if (!isOperator(inBootstrapOrg, bootstrapOrg)) {
      throw new ForbiddenException("Only the server's operators (admins of org %s) may %s",
          bootstrapOrg, what);
    }
  }

  /** What admins and public namespaces allow with no grant at all; no query needed. */
  private static boolean withoutGrant(OrgContext context, Action action, Namespace namespace) {
    return context.isAdmin()
        || action == Action.READ && namespace.visibility() == Visibility.AUTHENTICATED_PUBLIC
            && context.caller().scope().isEmpty();
  }

  private List<Grant> held(OrgContext context, Namespace namespace) {
    if (!namespace.orgId().equals(context.org().id())) {
      return List.of(); // a namespace of another org: no grant of this org can reach it
    }
    if (context.caller().scope().isPresent()) {
      // A maintenance job's token holds exactly one grant, on its table, and nothing else.
      return context.caller().scope().get().grant(context.caller().principal().id()).stream()
          .filter(grant -> grant.namespaceId().equals(namespace.id())).toList();
    }
    return grants.heldWithin(context.caller().principal().id(), namespace.id());
  }

  private static String verb(Action action) {
    return action.name().toLowerCase(Locale.ROOT);
  }
}
