package io.floe.application.model;

import io.floe.domain.MetadataValue;
import io.floe.domain.Visibility;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Changes to a namespace's descriptive fields; whatever is absent stays as it is. An empty
 * description clears it. {@code addMetadata} only adds keys that do not exist yet,
 * {@code updateMetadata} sets keys whether or not they exist, {@code removeMetadata} removes keys
 * (missing ones are ignored); the three must name disjoint keys, so that no request is ambiguous.
 */
public record ModifyNamespaceCommand(
    Optional<String> description,
    Map<String, MetadataValue> addMetadata,
    Map<String, MetadataValue> updateMetadata,
    Set<String> removeMetadata,
    Optional<Visibility> visibility) {

  public ModifyNamespaceCommand {
    Objects.requireNonNull(description, "description");
    addMetadata = Map.copyOf(addMetadata);
    updateMetadata = Map.copyOf(updateMetadata);
    removeMetadata = Set.copyOf(removeMetadata);
    Objects.requireNonNull(visibility, "visibility");
    description.ifPresent(DescriptiveFields::requireValidDescription);
    requireDisjoint(addMetadata.keySet(), updateMetadata.keySet(), removeMetadata);
  }

  /** The metadata after this change, or a validation error when an added key already exists. */
  public Map<String, MetadataValue> applyTo(Map<String, MetadataValue> current) {
    Set<String> existing = new TreeSet<>(addMetadata.keySet());
    existing.retainAll(current.keySet());
    if (!existing.isEmpty()) {
      throw Invalid.because("add_metadata cannot add keys that already exist: " + existing
          + "; use update_metadata to change them");
    }
    Map<String, MetadataValue> result = new HashMap<>(current);
    result.keySet().removeAll(removeMetadata);
    result.putAll(addMetadata);
    result.putAll(updateMetadata);
    DescriptiveFields.requireValidMetadata(result);
    return result;
  }

  private static void requireDisjoint(Set<String> add, Set<String> update, Set<String> remove) {
    Set<String> overlap = new TreeSet<>();
    overlap.addAll(intersection(add, update));
    overlap.addAll(intersection(add, remove));
    overlap.addAll(intersection(update, remove));
    if (!overlap.isEmpty()) {
      throw Invalid.because("add_metadata, update_metadata and remove_metadata must name "
          + "disjoint keys; named more than once: " + overlap);
    }
  }

  private static Set<String> intersection(Set<String> a, Set<String> b) {
    Set<String> out = new HashSet<>(a);
    out.retainAll(b);
    return out;
  }
}
