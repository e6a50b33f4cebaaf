package io.floe.application.service.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.domain.CatalogObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.MetadataUpdateParser;
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
    return AuditedChange.of(action, kind == CatalogObject.Kind.VIEW ? AuditTarget.Kind.VIEW
        : AuditTarget.Kind.TABLE, identifier);
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
