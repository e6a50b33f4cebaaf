package io.floe.application.model;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of an org's events a reader asks for; every part given must match, and an empty set asks
 * for all. {@code namespaces} and {@code objects} together name what the reader follows: an
 * event matches when it is about one of the namespaces (the namespace itself or an object in it)
 * or one of the objects ({@code <namespace>.<name>} of a table or view). Names compare as the
 * catalog compares them, ignoring case.
 */
public record ChangeFilter(Set<String> actions, Set<String> targetKinds, Set<String> namespaces,
    Set<String> objects, Optional<Instant> since) {
  public static final ChangeFilter ALL = new ChangeFilter(Set.of(), Set.of(), Set.of(), Set.of(),
      Optional.empty());

  public ChangeFilter {
    actions = Set.copyOf(actions);
    targetKinds = Set.copyOf(targetKinds);
    namespaces = namespaces.stream().map(ChangeFilter::key).collect(Collectors.toUnmodifiableSet());
    objects = objects.stream().map(ChangeFilter::key).collect(Collectors.toUnmodifiableSet());
    Objects.requireNonNull(since, "since");
  }

  /** Whether {@code event} matches: the rule every feed applies, in its store or here. */
  public boolean matches(ChangeEvent event) {
    AuditEntry entry = event.entry();
    boolean followed = namespaces.isEmpty() && objects.isEmpty()
        || event.namespace().map(ChangeFilter::key).filter(namespaces::contains).isPresent()
        || (entry.targetKind().equals("table") || entry.targetKind().equals("view"))
            && objects.contains(key(entry.targetName()));
    return followed
        && (actions.isEmpty() || actions.contains(entry.action()))
        && (targetKinds.isEmpty() || targetKinds.contains(entry.targetKind()))
        && since.map(s -> !entry.recordedAt().isBefore(s)).orElse(true);
  }

  /** The form names are compared in. */
  public static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
