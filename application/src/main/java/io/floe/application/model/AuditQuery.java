package io.floe.application.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A page of an org's audit log, newest first: the entries matching every filter given (the
 * principal who acted, the action, the target's kind and exact name, recorded at or after
 * {@code since} and before {@code until}), older than the entry {@code before} when paging on.
 */
public record AuditQuery(Optional<UUID> principalId, Optional<AuditAction> action,
    Optional<AuditTarget.Kind> targetKind, Optional<String> targetName, Optional<Instant> since,
    Optional<Instant> until, OptionalLong before, int limit) {
  public static final int MAX_LIMIT = 1000;
  public static final int DEFAULT_LIMIT = 100;

  public AuditQuery {
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(targetKind, "targetKind");
    Objects.requireNonNull(targetName, "targetName");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(until, "until");
    Objects.requireNonNull(before, "before");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequestException("limit must be between 1 and %d, got %d", MAX_LIMIT, limit);
    }
    if (since.isPresent() && until.isPresent() && !since.get().isBefore(until.get())) {
      throw new BadRequestException("since must be before until");
    }
  }

  /** The whole log, newest first, one default page at a time. */
  public static AuditQuery all() {
    return new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), OptionalLong.empty(), DEFAULT_LIMIT);
  }
}
