package io.floe.application.iceberg.replay;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.EnvironmentContext;
import org.apache.iceberg.SnapshotSummary;

/**
 * Which entries of a client's snapshot summary a replay carries over. Counts and totals are
 * computed again by iceberg-core's producer on the new parent (and it refuses a summary that
 * names them twice); everything else, such as an engine's application id or a write-audit id,
 * describes the change itself and goes along.
 */
final class SummaryProperties {
  private static final Set<String> COMPUTED = Set.of(
      SnapshotSummary.ADDED_FILES_PROP, SnapshotSummary.DELETED_FILES_PROP,
      SnapshotSummary.TOTAL_DATA_FILES_PROP, SnapshotSummary.ADDED_DELETE_FILES_PROP,
      SnapshotSummary.ADD_EQ_DELETE_FILES_PROP, SnapshotSummary.REMOVED_EQ_DELETE_FILES_PROP,
      SnapshotSummary.ADD_POS_DELETE_FILES_PROP, SnapshotSummary.REMOVED_POS_DELETE_FILES_PROP,
      SnapshotSummary.ADDED_DVS_PROP, SnapshotSummary.REMOVED_DVS_PROP,
      SnapshotSummary.REMOVED_DELETE_FILES_PROP, SnapshotSummary.TOTAL_DELETE_FILES_PROP,
      SnapshotSummary.ADDED_RECORDS_PROP, SnapshotSummary.DELETED_RECORDS_PROP,
      SnapshotSummary.TOTAL_RECORDS_PROP, SnapshotSummary.ADDED_FILE_SIZE_PROP,
      SnapshotSummary.REMOVED_FILE_SIZE_PROP, SnapshotSummary.TOTAL_FILE_SIZE_PROP,
      SnapshotSummary.ADDED_POS_DELETES_PROP, SnapshotSummary.REMOVED_POS_DELETES_PROP,
      SnapshotSummary.TOTAL_POS_DELETES_PROP, SnapshotSummary.ADDED_EQ_DELETES_PROP,
      SnapshotSummary.REMOVED_EQ_DELETES_PROP, SnapshotSummary.TOTAL_EQ_DELETES_PROP,
      SnapshotSummary.DELETED_DUPLICATE_FILES, SnapshotSummary.CHANGED_PARTITION_COUNT_PROP,
      SnapshotSummary.PARTITION_SUMMARY_PROP, SnapshotSummary.CREATED_MANIFESTS_COUNT,
      SnapshotSummary.REPLACED_MANIFESTS_COUNT, SnapshotSummary.KEPT_MANIFESTS_COUNT,
      SnapshotSummary.PROCESSED_MANIFEST_ENTRY_COUNT, EnvironmentContext.ENGINE_NAME,
      EnvironmentContext.ENGINE_VERSION, "operation");

  private SummaryProperties() {}

  /** The entries of {@code summary} that the producer does not compute itself. */
  static Map<String, String> carried(Map<String, String> summary) {
    Map<String, String> out = new LinkedHashMap<>();
    if (summary == null) {
      return out;
    }
    Set<String> environment = EnvironmentContext.get().keySet();
    summary.forEach((key, value) -> {
      if (!COMPUTED.contains(key) && !environment.contains(key)
          && !key.startsWith(SnapshotSummary.CHANGED_PARTITION_PREFIX)) {
        out.put(key, value);
      }
    });
    return out;
  }
}
