package io.floe.adapters.rest.web.view;

import java.util.List;

/**
 * The namespace page: what it holds (tables and views), Settings (General: description and typed
 * metadata, editable with {@code manage}; the engines' properties, read-only; deletion), Access
 * (grants, for {@code manage} only) and Connect.
 */
public record NamespacePage(
    Chrome chrome,
    List<Tab> tabs,
    String name,
    String description,
    String ownDescription,
    List<MetadataEntry> metadata,
    String metadataText,
    List<MetadataEntry> properties,
    String bucket,
    String visibility,
    long tableCount,
    List<TableRow> tables,
    Paging tablesPaging,
    List<TableRow> views,
    boolean canManage,
    String settingsAction,
    String deleteAction,
    List<GrantRow> grants,
    List<Option> principals,
    List<Option> actions,
    List<String> tableNames,
    String grantAction,
    List<Snippet> snippets) {

  public boolean tab(String id) {
    return tabs.stream().anyMatch(tab -> tab.id().equals(id) && tab.selected());
  }
}
