package io.floe.application.iceberg.replay;

import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRefType;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * A change that adds one snapshot and moves one branch to it, asserting where the branch was when
 * the client built the snapshot: the only shape a server can replay. {@code base} is the
 * snapshot the client built on (null when the branch did not exist yet).
 */
record SnapshotChange(String branch, Long base, Snapshot snapshot) {

  /** The change as a snapshot change, or empty when it is anything else (or more). */
  static Optional<SnapshotChange> of(UpdateTableRequest change) {
    MetadataUpdate.AddSnapshot added = null;
    MetadataUpdate.SetSnapshotRef moved = null;
    for (MetadataUpdate update : change.updates()) {
      if (update instanceof MetadataUpdate.AddSnapshot add && added == null) {
        added = add;
      } else if (update instanceof MetadataUpdate.SetSnapshotRef set && moved == null) {
        moved = set;
      } else {
        return Optional.empty();
      }
    }
    if (added == null || moved == null
        || !SnapshotRefType.BRANCH.name().equalsIgnoreCase(moved.type())
        || moved.snapshotId() != added.snapshot().snapshotId()) {
      return Optional.empty();
    }
    String branch = moved.name();
    Snapshot snapshot = added.snapshot();
    return change.requirements().stream()
        .filter(UpdateRequirement.AssertRefSnapshotID.class::isInstance)
        .map(UpdateRequirement.AssertRefSnapshotID.class::cast)
        .filter(assertion -> assertion.refName().equals(branch))
        .findFirst()
        .filter(assertion -> Objects.equals(assertion.snapshotId(), snapshot.parentId()))
        .map(assertion -> new SnapshotChange(branch, assertion.snapshotId(), snapshot));
  }

  /** Whether {@code requirement} is the assertion on this change's branch. */
  boolean isBranchAssertion(UpdateRequirement requirement) {
    return requirement instanceof UpdateRequirement.AssertRefSnapshotID assertion
        && assertion.refName().equals(branch);
  }

  String operation() {
    return snapshot.operation();
  }
}
