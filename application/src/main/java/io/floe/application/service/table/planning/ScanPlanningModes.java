package io.floe.application.service.table.planning;

import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTCatalogProperties.ScanPlanningMode;

/**
 * Where engines plan a table's scans, as a table load tells them in its config
 * ({@code scan-planning-mode}, which Iceberg's Java client follows over its own setting): what
 * the table's property of the same name says, or else what the operator chose for the server.
 * When neither says anything (the operator's default is {@code client} and the table has no such
 * property) a load says nothing either, and the engine's own setting decides, Iceberg's default
 * being {@code client}.
 */
public record ScanPlanningModes(ScanPlanningMode serverDefault) {
  /** The table property a table owner sets to {@code client} or {@code server}. */
  public static final String TABLE_PROPERTY = RESTCatalogProperties.SCAN_PLANNING_MODE;
  /** Clients plan, as Iceberg does unless told otherwise. */
  public static final ScanPlanningModes CLIENT = new ScanPlanningModes(ScanPlanningMode.CLIENT);

  /** The config entry of a load of a table with {@code properties}. */
  public Map<String, String> config(Map<String, String> properties) {
    ScanPlanningMode mode = of(properties);
    if (mode == ScanPlanningMode.CLIENT && serverDefault == ScanPlanningMode.CLIENT
        && !properties.containsKey(TABLE_PROPERTY)) {
      return Map.of();
    }
    return Map.of(RESTCatalogProperties.SCAN_PLANNING_MODE, mode.modeName());
  }

  /** A table's mode; a property that names no mode is ignored for the server's. */
  public ScanPlanningMode of(Map<String, String> properties) {
    String value = properties.get(TABLE_PROPERTY);
    if (value != null) {
      for (ScanPlanningMode mode : ScanPlanningMode.values()) {
        if (mode.modeName().equals(value.strip().toLowerCase(Locale.ROOT))) {
          return mode;
        }
      }
    }
    return serverDefault;
  }
}
