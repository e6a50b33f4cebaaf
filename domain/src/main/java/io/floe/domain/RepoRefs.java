package io.floe.domain;

import java.util.List;
import java.util.Objects;

/** The branches and tags of a repo, each with the snapshot it points at, sorted by name. */
public record RepoRefs(List<Pointer> branches, List<Pointer> tags) {

  /** A branch or tag name and the id of the snapshot it points at. */
  public record Pointer(String name, String snapshotId) {
    public Pointer {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(snapshotId, "snapshotId");
    }
  }

  public RepoRefs {
    branches = List.copyOf(branches);
    tags = List.copyOf(tags);
  }
}
