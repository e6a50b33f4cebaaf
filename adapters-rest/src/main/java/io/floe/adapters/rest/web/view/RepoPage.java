package io.floe.adapters.rest.web.view;

import java.util.List;

/**
 * A repo's page: its branches and tags, the commit log of the chosen ref with each commit's
 * metadata, its group tree with array shapes and chunking, and the Iceberg tables it declares.
 */
public record RepoPage(
    Chrome chrome,
    List<Tab> tabs,
    String name,
    String description,
    String location,
    String bucket,
    String ref,
    String refAction,
    List<Option> refs,
    List<RefRow> branches,
    List<RefRow> tags,
    List<CommitRow> commits,
    List<NodeRow> nodes,
    boolean treeCut,
    List<RepoTableRow> tables,
    List<String> tableProblems) {

  /** A branch or tag and the snapshot it points at. */
  public record RefRow(String name, String snapshot, String href) {}

  /** A commit of the log, its metadata as {@code key: JSON} entries. */
  public record CommitRow(String id, String message, String written, String writtenIso,
      List<MetadataEntry> metadata) {}

  /** A group or array of the tree, indented by depth. */
  public record NodeRow(int depth, String path, String name, String kind, String shape,
      String chunks, String dataType, int attributeCount) {}

  /** A table the repo declares. */
  public record RepoTableRow(String name, String group, String location,
      String metadataLocation) {}

  public boolean tab(String id) {
    return tabs.stream().anyMatch(tab -> tab.id().equals(id) && tab.selected());
  }
}
