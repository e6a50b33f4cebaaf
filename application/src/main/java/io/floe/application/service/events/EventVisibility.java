package io.floe.application.service.events;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Namespace;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Which events a reader may see, and which a filter follows; the one place that decides it, for
 * pulls and for deliveries. Both go by identity, not by name: a namespace deleted and created
 * again under its name is another namespace, whose history starts empty.
 *
 * <p>Org admins see every event. Anyone else sees the events of a namespace, and of the tables
 * and views in it, when the event was recorded for the namespace that lives under that name now
 * (the same id) and {@link AccessPolicy} lets the reader read it. Events of anything else (repos,
 * principals, grants, even grants on a namespace, tokens, buckets, the org), of namespaces that no
 * longer exist, of an earlier namespace of the same name, and events recorded before the feed kept
 * namespaces' ids are for admins only.
 *
 * <p>A filter naming a namespace (or a table or view in it) follows the namespace living under
 * that name now: an earlier namespace's events do not match. While no namespace has the name,
 * the filter matches the events recorded under it (which only admins see).
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
    Map<UUID, Boolean> readable = new HashMap<>();
    return event -> isCatalogChange(event) && event.namespaceId()
        .flatMap(id -> event.namespace().map(name -> readable.computeIfAbsent(id,
            key -> live(reader, name).filter(found -> found.id().equals(id))
                .filter(found -> policy.allows(reader, Action.READ, found)).isPresent())))
        .orElse(false);
  }

  /**
   * {@link #forReader(OrgContext)} for the events that {@code filter} also follows by identity
   * (the feed matched them by name already).
   */
  public Predicate<ChangeEvent> forReader(OrgContext reader, ChangeFilter filter) {
    Predicate<ChangeEvent> visible = forReader(reader);
    if (filter.namespaces().isEmpty() && filter.objects().isEmpty()) {
      return visible;
    }
    Map<String, Optional<UUID>> current = new HashMap<>();
    return visible.and(event -> event.namespace()
        .map(name -> current.computeIfAbsent(ChangeFilter.key(name),
            key -> live(reader, name).map(Namespace::id)))
        // A name nobody holds now matches by name; else only the holder's own events.
        .map(now -> now.isEmpty() || event.namespaceId().equals(now))
        .orElse(true));
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

  private Optional<Namespace> live(OrgContext reader, String namespace) {
    CatalogName name;
    try {
      name = new CatalogName(namespace);
    } catch (InvalidNameException e) {
      return Optional.empty(); // not a namespace of this catalog (a multi-level name, say)
    }
    return namespaces.findLive(reader.org().id(), name);
  }
}
