package io.floe.application.model;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A recorded change: who made it (the principal as it was named then), when, for which request,
 * and the change itself, its action and target kind by their wire names. {@code id} grows with
 * every entry of the server and orders the log.
 */
public record AuditEntry(long id, Instant recordedAt, UUID principalId, String principalName,
    String action, String targetKind, String targetName, Map<String, Object> details,
    String requestId) {
  public AuditEntry {
    Objects.requireNonNull(recordedAt, "recordedAt");
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(principalName, "principalName");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(targetKind, "targetKind");
    Objects.requireNonNull(targetName, "targetName");
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    Objects.requireNonNull(requestId, "requestId");
  }
}
