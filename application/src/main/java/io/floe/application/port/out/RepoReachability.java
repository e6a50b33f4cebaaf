package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a repo's Icechunk history keeps alive: walks every branch and tag with its ancestry and
 * compares that with what the repo's prefix stores. Nothing here deletes.
 *
 * <p>A reachable object that cannot be read throws {@link StorageException} (or
 * {@link RepoContentNotFoundException} when it is missing): deciding on partial knowledge could
 * delete live data.
 */
public interface RepoReachability {

  /** A stored Icechunk object and what it is ({@code snapshot}, {@code manifest}, ...). */
  record IcechunkObject(ListedObject object, String kind) {
    public IcechunkObject {
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(kind, "kind");
    }
  }

  /**
   * The walk's findings: the Icechunk objects under the prefix nothing reaches (keys in the
   * bucket), listed after the walk; and every {@code metadata.json} a reachable snapshot's commit
   * names for a table (the icechest convention's {@code iceberg:table_versions}). Files that are
   * not Icechunk's (the tables' files among them) are never in {@code unreachable}.
   */
  record Walk(List<IcechunkObject> unreachable, Set<String> tableMetadataLocations) {
    public Walk {
      unreachable = List.copyOf(unreachable);
      tableMetadataLocations = Set.copyOf(tableMetadataLocations);
    }
  }

  Walk walk(BucketConfig bucket, StoragePath prefix);
}
