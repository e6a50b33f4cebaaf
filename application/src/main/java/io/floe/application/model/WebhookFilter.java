package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which of an org's events a webhook subscription delivers: those of one namespace (and what is in
 * it), or of one table or view in it, and only these actions ({@code table.commit}, ...); an
 * empty part matches everything. What the subscription's owner may read narrows it further, at
 * every delivery.
 */
public record WebhookFilter(Optional<String> namespace, Optional<String> table,
    Set<String> actions) {
  public static final WebhookFilter ALL = new WebhookFilter(Optional.empty(), Optional.empty(),
      Set.of());

  public WebhookFilter {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    actions = Set.copyOf(actions);
    if (table.isPresent() && namespace.isEmpty()) {
      throw Invalid.because("a table filter needs the namespace of the table");
    }
  }

  /** The same filter in the words of the change feed. */
  public ChangeFilter toChangeFilter() {
    Set<String> namespaces = table.isPresent() ? Set.of() : namespace.map(Set::of).orElse(Set.of());
    Set<String> objects = table.map(name -> Set.of(namespace.orElseThrow() + "." + name))
        .orElse(Set.of());
    return new ChangeFilter(actions, Set.of(), namespaces, objects, Optional.empty());
  }
}
