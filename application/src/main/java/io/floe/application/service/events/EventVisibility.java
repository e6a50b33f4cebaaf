package io.floe.application.service.events;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which events a reader may see; the one place that decides it, for pulls and for deliveries.
 * Org admins see every event. Anyone else sees the events of a namespace, and of the tables and
 * views in it, when {@link AccessPolicy} lets it read that namespace as it is now; events of
 * anything else (repos, principals, grants, even grants on a namespace, tokens, buckets, the org)
 * and of namespaces that no longer exist are for admins only.
 */
public final class EventVisibility {
  private final NamespaceStore namespaces;
  private final AccessPolicy policy;

  public EventVisibility(NamespaceStore namespaces, AccessPolicy policy) {
    this.namespaces = namespaces;
    this.policy = policy;
  }

  /**
   * The rule for one reader, for the events of one request: each namespace is looked up once,
   * however many of its events the request passes.
   */
  public Predicate<ChangeEvent> forReader(OrgContext reader) {
    if (reader.isAdmin()) {
      return event -> true;
    }
    Map<String, Boolean> readable = new HashMap<>();
    return event -> isCatalogChange(event) && event.namespace()
        .map(name -> readable.computeIfAbsent(ChangeFilter.key(name),
            key -> mayRead(reader, name)))
        .orElse(false);
  }

  /**
   * A change to a namespace, table or view itself: not a grant on one, which names the namespace
   * as its target but is the org's access control, for admins.
   */
  private static boolean isCatalogChange(ChangeEvent event) {
    String action = event.entry().action();
    return action.startsWith("namespace.") || action.startsWith("table.")
        || action.startsWith("view.");
  }

  private boolean mayRead(OrgContext reader, String namespace) {
    CatalogName name;
    try {
      name = new CatalogName(namespace);
    } catch (InvalidNameException e) {
      return false; // not a namespace of this catalog (a multi-level name, say): admins only
    }
    return namespaces.findLive(reader.org().id(), name)
        .filter(found -> policy.allows(reader, Action.READ, found))
        .isPresent();
  }
}
