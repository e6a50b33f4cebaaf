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
 * What is particular to namespaces in their lifecycle: description changes, restore, and the
 * files of live tables the cleanup must keep. Their soft delete and cleanup progress are a
 * {@link SoftDeleteStore}. The {@code lock*} methods take a row lock until the surrounding
 * transaction ends.
 */
public interface NamespaceLifecycleStore {
  Optional<Namespace> lockLive(UUID orgId, CatalogName name);

  Namespace saveDescription(UUID namespaceId, Optional<String> description,
      Map<String, MetadataValue> metadata, Visibility visibility, Instant now);

  /** The restorable namespace of that name: deleted, name still held, recovery period running. */
  Optional<Namespace> lockRestorable(UUID orgId, CatalogName name, Instant now);

  Namespace restore(UUID namespaceId, Instant now);

  /**
   * Catalog objects, in any namespace, whose files lie at or under {@code location},
   * segment-wise.
   */
  List<StorageLocation> objectsWithin(StorageLocation location);
}
