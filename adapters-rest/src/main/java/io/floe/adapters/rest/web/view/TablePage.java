package io.floe.adapters.rest.web.view;

import java.util.List;

/**
 * The table page: its identifier (with a copy button, in the command line's syntax), schema,
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
    List<Snippet> snippets) {

  public boolean tab(String id) {
    return tabs.stream().anyMatch(tab -> tab.id().equals(id) && tab.selected());
  }
}
