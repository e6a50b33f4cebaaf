package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One committed change as the feed delivers it: the audit entry it was recorded as, its event id
 * (the same on every delivery, to de-duplicate on), its position in the feed, and how many events
 * its request made (a multi-table commit makes one per table).
 */
public record ChangeEvent(FeedPosition position, UUID eventId, AuditEntry entry,
    int requestEventCount) {
  public ChangeEvent {
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(entry, "entry");
  }

  /** The namespace the changed object lives in, when it is a namespace, table or view. */
  public Optional<String> namespace() {
    return switch (entry.targetKind()) {
      case "namespace" -> Optional.of(entry.targetName());
      case "table", "view" -> Optional.ofNullable(entry.details().get("namespace"))
          .map(String::valueOf);
      default -> Optional.empty();
    };
  }
}
