package io.floe.application.service.table;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.application.service.storage.TableStorageAccess.Granted;
import io.floe.application.service.table.planning.ScanPlanningModes;
import io.floe.domain.Action;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;

/**
 * Loads a table's metadata (serialized once per metadata file and snapshot mode: metadata files
 * are immutable) with storage access: a plain namespace's table, or one a version of a repo
 * declares.
 */
public final class LoadTableService implements LoadTableUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final TableStorageAccess storageAccess;
  private final ScanPlanningModes planning;

  /** Loads that leave scan planning to clients. */
  public LoadTableService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      TableStorageAccess storageAccess) {
    this(locator, policy, files, storageAccess, ScanPlanningModes.CLIENT);
  }

  /** Loads that tell engines where to plan scans, as {@code planning} decides per table. */
  public LoadTableService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      TableStorageAccess storageAccess, ScanPlanningModes planning) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.storageAccess = storageAccess;
    this.planning = planning;
  }

  @Override
  public LoadedTable loadTable(OrgContext context, TableIdentifier identifier, SnapshotMode mode,
      Set<AccessDelegation> delegation) {
    ResolvedTable table = readable(context, identifier);
    String location = table.metadataLocation();
    Granted granted = storageAccess.grant(context, identifier, table.bucket(), table.path(),
        storageAccess.accessFor(context, table), delegation);
    return new LoadedTable(location, files.tableJson(table.bucket(), location, mode),
        () -> files.readTable(table.bucket(), location, mode), config(table, granted),
        granted.credentials());
  }

  /** The storage access's config, and where the table's scans are planned. */
  private Map<String, String> config(ResolvedTable table, Granted granted) {
    Map<String, String> config = new HashMap<>(granted.config());
    config.putAll(planning.config(
        files.readTable(table.bucket(), table.metadataLocation()).properties()));
    return config;
  }

  @Override
  public String currentMetadataLocation(OrgContext context, TableIdentifier identifier) {
    return readable(context, identifier).metadataLocation();
  }

  private ResolvedTable readable(OrgContext context, TableIdentifier identifier) {
    ResolvedTable table = locator.table(context, identifier);
    table.require(policy, context, Action.READ);
    return table;
  }
}
