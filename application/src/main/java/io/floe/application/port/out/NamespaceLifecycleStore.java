package io.floe.application.port.out;

import io.floe.domain.CatalogName;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.Visibility;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The lifecycle of namespaces in the catalog: description changes, soft delete, restore, and the
 * recorded progress of the cleanup that finally removes them. The {@code lock*} methods take a row
 * lock until the surrounding transaction ends.
 */
public interface NamespaceLifecycleStore {
  /** A soft-deleted namespace and how far its cleanup got. */
  record Deleted(Namespace namespace, Instant purgeAfter, boolean retainData,
      boolean nameReleased, int cleanupAttempts) {}

  Optional<Namespace> lockLive(UUID orgId, CatalogName name);

  Namespace saveDescription(UUID namespaceId, Optional<String> description,
      Map<String, MetadataValue> metadata, Visibility visibility, Instant now);

  /** Soft-deletes a live namespace; with {@code nameReleased} its name is already given up. */
  void markDeleted(UUID namespaceId, Instant now, Instant purgeAfter, boolean retainData,
      boolean nameReleased);

  /** The restorable namespace of that name: deleted, name still held, recovery period running. */
  Optional<Namespace> lockRestorable(UUID orgId, CatalogName name, Instant now);

  Namespace restore(UUID namespaceId, Instant now);

  /** Deleted namespaces whose recovery period ended by {@code now}, optionally of one org. */
  List<UUID> dueForCleanup(Optional<UUID> orgId, Instant now, int limit);

  /** Locks a deleted namespace for cleanup; empty when another pass holds it or it is gone. */
  Optional<Deleted> lockForCleanup(UUID namespaceId);

  void markNameReleased(UUID namespaceId, Instant now);

  /** Counts one more cleanup attempt; the count tells operators about a namespace that sticks. */
  void recordCleanupAttempt(UUID namespaceId, Instant now);

  /** Adds {@code objectsDeleted} to the namespace's tally and records the last error, if any. */
  void recordCleanupProgress(UUID namespaceId, long objectsDeleted, Optional<String> error,
      Instant now);

  /** Catalog objects, in any namespace, whose files lie at or under {@code location}. */
  List<StorageLocation> objectsWithin(StorageLocation location);

  /** Removes the namespace's row for good; its name and claims must be released already. */
  void purge(UUID namespaceId);
}
