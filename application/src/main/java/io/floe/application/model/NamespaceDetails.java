package io.floe.application.model;

import io.floe.domain.Action;
import io.floe.domain.Namespace;
import java.util.Objects;
import java.util.Set;

/** A namespace as the management API shows it: with its bucket, its table count, and what the caller may do. */
public record NamespaceDetails(
    String org,
    Namespace namespace,
    String bucketNickname,
    long tableCount,
    Set<Action> effectiveActions) {

  public NamespaceDetails {
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(bucketNickname, "bucketNickname");
    effectiveActions = Set.copyOf(effectiveActions);
  }
}
