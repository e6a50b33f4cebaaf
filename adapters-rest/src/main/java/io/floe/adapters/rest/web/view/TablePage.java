package io.floe.adapters.rest.web.view;

import io.floe.application.model.TablePreview;

import java.util.List;

/**
 * The table page: its identifier (with a copy button, in the command line's syntax), the first
 * rows of its current snapshot with its row and file counts, schema,
 * partition spec, sort order, snapshots and their chart, properties, and Connect.
 */
public record TablePage(
    Chrome chrome,
    List<Tab> tabs,
    String namespace,
    String name,
    String identifier,
    String location,
    String formatVersion,
    String uuid,
    SchemaPanel schema,
    List<SpecRow> partitionFields,
    List<SpecRow> sortFields,
    List<SnapshotRow> snapshots,
    Chart chart,
    List<MetadataEntry> properties,
    List<Snippet> snippets,
    TablePreview preview,
    MaintenancePanel maintenance) {

  /** The preview's counts as a sentence: rows and data files of the current snapshot. */
  public String counts() {
    String rows = preview.totalRows().map(n -> String.format(java.util.Locale.ROOT, "%,d", n))
        .orElse("An unknown number of");
    String files = preview.dataFiles().map(n -> String.format(java.util.Locale.ROOT, "%,d", n))
        .orElse("an unknown number of");
    return rows + (preview.totalRows().orElse(2L) == 1 ? " row" : " rows") + " in " + files
        + (preview.dataFiles().orElse(2L) == 1 ? " data file" : " data files")
        + " (current snapshot)";
  }

  public boolean tab(String id) {
    return tabs.stream().anyMatch(tab -> tab.id().equals(id) && tab.selected());
  }
}
