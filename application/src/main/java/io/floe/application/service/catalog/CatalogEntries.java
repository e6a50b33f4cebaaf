package io.floe.application.service.catalog;

import io.floe.application.port.out.CatalogObjectStore;
import io.floe.domain.CatalogObject;
import io.floe.domain.CatalogObject.Kind;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.TableName;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * New entries in the catalog, tables and views alike: a name may be taken only once in a
 * namespace, whatever its kind, and two entries never share a location.
 */
public final class CatalogEntries {
  private final CatalogObjectStore objects;
  private final Clock clock;

  public CatalogEntries(CatalogObjectStore objects, Clock clock) {
    this.objects = objects;
    this.clock = clock;
  }

  /** A new entry to add under {@code identifier}. */
  public record NewEntry(UUID id, Namespace namespace, TableName name, Kind kind,
      String metadataLocation, StorageLocation location, boolean ownBucket) {}

  /** Adds the entry; an entry of either kind already holding the name is a conflict. */
  public void insert(NewEntry entry, TableIdentifier identifier) {
    Instant now = clock.instant();
    boolean inserted = objects.insert(new CatalogObject(entry.id(), entry.namespace().id(),
        entry.name(), entry.kind(), entry.metadataLocation(), entry.location(),
        entry.ownBucket(), now, now));
    if (!inserted) {
      throw alreadyExists(entry.kind(), entry.kind(), identifier);
    }
  }

  /**
   * Refuses a client-chosen location (a staged create's, a registered table's) that another live
   * table or view already uses: their files, and any credentials vended for them, would mix.
   */
  public void requireUnused(TablePlacement.Placed placed) {
    if (objects.locationInUse(placed.bucket().id(), placed.location().path())) {
      throw new AlreadyExistsException("Location '%s' is already used by another table or view",
          placed.rootUri());
    }
  }

  /** The conflict of creating a {@code creating} where a {@code existing} holds the name. */
  public static AlreadyExistsException alreadyExists(Kind existing, Kind creating,
      TableIdentifier identifier) {
    return existing == creating
        ? new AlreadyExistsException("%s already exists: %s", kindName(existing), identifier)
        : new AlreadyExistsException("%s with same name already exists: %s", kindName(existing),
            identifier);
  }

  /** "Table" or "View", as Iceberg's messages name them. */
  public static String kindName(Kind kind) {
    String lower = kind.name().toLowerCase(Locale.ROOT);
    return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
  }
}
