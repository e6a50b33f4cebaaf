package io.floe.application.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a garbage collection of a repo found: the objects under its prefix that nothing reaches
 * and that were last written before {@code olderThan} (deleted, or on a dry run what would be),
 * with their total size; and how many unreachable objects it spared as younger than that, since
 * a writer may be about to commit them.
 */
public record RepoGarbage(String repo, boolean dryRun, long graceSeconds, Instant olderThan,
    List<Item> objects, long totalBytes, long sparedYoung, long sparedYoungBytes) {

  /** One object: its key under the repo's prefix, what it is, its size and last write. */
  public record Item(String key, String kind, long sizeBytes, Instant lastModified) {
    public Item {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(lastModified, "lastModified");
    }
  }

  public RepoGarbage {
    Objects.requireNonNull(repo, "repo");
    Objects.requireNonNull(olderThan, "olderThan");
    objects = List.copyOf(objects);
  }
}
