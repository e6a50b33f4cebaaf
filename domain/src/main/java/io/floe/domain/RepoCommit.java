package io.floe.domain;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One commit in a repo's history. {@code metadata} is the commit's JSON-like metadata (nested maps,
 * lists, strings, numbers, booleans, null) exactly as the writer, Floe or another Icechunk client,
 * stored it.
 */
public record RepoCommit(
    String snapshotId,
    Optional<String> parentId,
    String message,
    Instant writtenAt,
    Map<String, Object> metadata) {

  public RepoCommit {
    Objects.requireNonNull(snapshotId, "snapshotId");
    Objects.requireNonNull(parentId, "parentId");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(writtenAt, "writtenAt");
    // Not Map.copyOf: JSON metadata may legitimately hold null values.
    metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }
}
