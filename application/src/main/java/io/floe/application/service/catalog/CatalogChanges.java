package io.floe.application.service.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.domain.CatalogObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.MetadataUpdateParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.JsonUtil;

/**
 * How changes to tables and views are recorded in the audit log: the object by its
 * {@code <namespace>.<name>}, and for a commit the metadata files it moved between and the kinds
 * of update it applied (their names in the Iceberg REST protocol, never their values).
 */
public final class CatalogChanges {
  private CatalogChanges() {}

  public static AuditedChange of(AuditAction action, CatalogObject.Kind kind,
      TableIdentifier identifier) {
    // The namespace on its own too: names may hold dots, so the target's name alone is ambiguous
    // and the change feed filters and authorizes by namespace.
    return AuditedChange.of(action, kind == CatalogObject.Kind.VIEW ? AuditTarget.Kind.VIEW
        : AuditTarget.Kind.TABLE, identifier)
        .with("namespace", identifier.namespace().toString());
  }

  /**
   * A table commit: {@link #committed} with the table's current snapshot after it and each
   * snapshot it added (its id, parent, operation and summary; never the rest of the metadata).
   */
  public static AuditedChange tableCommitted(TableIdentifier identifier, String previous,
      TableMetadata base, TableMetadata next, List<MetadataUpdate> updates) {
    Set<Long> before = new HashSet<>();
    base.snapshots().forEach(snapshot -> before.add(snapshot.snapshotId()));
    List<Map<String, Object>> added = new ArrayList<>();
    for (Snapshot snapshot : next.snapshots()) {
      if (!before.contains(snapshot.snapshotId())) {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("snapshot_id", snapshot.snapshotId());
        described.put("parent_snapshot_id", snapshot.parentId());
        described.put("sequence_number", snapshot.sequenceNumber());
        described.put("timestamp_ms", snapshot.timestampMillis());
        described.put("operation", snapshot.operation());
        described.put("summary", snapshot.summary());
        added.add(described);
      }
    }
    AuditedChange change = committed(AuditAction.TABLE_COMMIT, CatalogObject.Kind.TABLE,
        identifier, previous, next.metadataFileLocation(), updates);
    if (next.currentSnapshot() != null) {
      change = change.with("snapshot_id", next.currentSnapshot().snapshotId());
    }
    return added.isEmpty() ? change : change.with("added_snapshots", added);
  }

  /** A new object, with where its first metadata file is. */
  public static AuditedChange created(AuditAction action, CatalogObject.Kind kind,
      TableIdentifier identifier, String metadataLocation) {
    return of(action, kind, identifier).with("metadata_location", metadataLocation);
  }

  /** A commit that moved the object's pointer from {@code previous} to {@code next}. */
  public static AuditedChange committed(AuditAction action, CatalogObject.Kind kind,
      TableIdentifier identifier, String previous, String next, List<MetadataUpdate> updates) {
    return of(action, kind, identifier)
        .with("previous_metadata_location", previous)
        .with("metadata_location", next)
        .with("updates", updateNames(updates));
  }

  /** The protocol's names of the updates, each once, in the order first applied. */
  static List<String> updateNames(List<MetadataUpdate> updates) {
    Set<String> names = new LinkedHashSet<>();
    for (MetadataUpdate update : updates) {
      try {
        names.add(JsonUtil.mapper().readTree(MetadataUpdateParser.toJson(update))
            .path("action").asText(update.getClass().getSimpleName()));
      } catch (JsonProcessingException | RuntimeException e) {
        names.add(update.getClass().getSimpleName());
      }
    }
    return List.copyOf(names);
  }
}
