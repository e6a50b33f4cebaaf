package io.floe.domain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A group or array of a repo as of one snapshot: its Zarr attributes, the rest of its
 * {@code zarr.json}, and (for groups) the paths of its direct children.
 */
public record RepoNode(
    String path,
    Kind kind,
    Map<String, Object> attributes,
    Map<String, Object> zarrMetadata,
    List<String> children) {

  public enum Kind { GROUP, ARRAY }

  public RepoNode {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    zarrMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(zarrMetadata));
    children = List.copyOf(children);
  }
}
