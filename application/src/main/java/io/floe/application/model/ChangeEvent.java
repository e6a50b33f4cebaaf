package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One committed change as the feed delivers it: the audit entry it was recorded as, its event id
 * (the same on every delivery, to de-duplicate on), its position in the feed, and how many events
 * its request made (a multi-table commit makes one per table). {@code namespaceId} and
 * {@code objectId} say which namespace, and which table or view, the change was made to, by
 * identity: a name deleted and created again names another object. They are empty for changes
 * to anything else, for a table or view that no longer existed once the change was made (a drop,
 * a rename's old name), and for events recorded before the feed kept them.
 */
public record ChangeEvent(FeedPosition position, UUID eventId, AuditEntry entry,
    int requestEventCount, Optional<UUID> namespaceId, Optional<UUID> objectId) {
  public ChangeEvent {
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(namespaceId, "namespaceId");
    Objects.requireNonNull(objectId, "objectId");
  }

  /** An event whose namespace and object are not known by identity. */
  public ChangeEvent(FeedPosition position, UUID eventId, AuditEntry entry,
      int requestEventCount) {
    this(position, eventId, entry, requestEventCount, Optional.empty(), Optional.empty());
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
