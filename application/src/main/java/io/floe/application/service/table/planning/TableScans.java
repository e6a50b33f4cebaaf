package io.floe.application.service.table.planning;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IncrementalAppendScan;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Iceberg's own scans of one table, configured from a REST scan request as iceberg-core's
 * reference handler configures them: a snapshot scan ({@code useSnapshot}) or an incremental
 * append scan between two snapshots, with the request's filter, projection, case sensitivity
 * and statistics columns. A scan can be limited to some of its data manifests: the table it runs
 * on shows each snapshot with only those, so iceberg-core evaluates, prunes and joins deletes
 * exactly as it always does, on part of the table.
 */
final class TableScans {
  private TableScans() {}

  /**
   * The request with the snapshot it reads pinned (the current one when it names none), once
   * its filter binds to the schema it reads and its columns are in that schema (a 400
   * otherwise, even where there is nothing to scan).
   */
  static PlanTableScanRequest pinned(TableMetadata metadata, PlanTableScanRequest request) {
    PlanTableScanRequest pinned = pin(metadata, request);
    Schema schema = metadata.schema();
    if (pinned.snapshotId() != null && metadata.snapshot(pinned.snapshotId()).schemaId() != null
        && metadata.schemasById().containsKey(metadata.snapshot(pinned.snapshotId()).schemaId())) {
      schema = metadata.schemasById().get(metadata.snapshot(pinned.snapshotId()).schemaId());
    }
    if (pinned.filter() != null) {
      try {
        Binder.bind(schema.asStruct(), pinned.filter(), pinned.caseSensitive());
      } catch (ValidationException e) {
        // iceberg-core names the Java class of a value it cannot convert: the client needs not.
        throw new ValidationException("Invalid filter: %s",
            String.valueOf(e.getMessage()).replaceAll("\\s*\\((java|org)\\.[\\w.$]+\\)", ""));
      }
    }
    for (List<String> columns : Arrays.asList(pinned.select(), pinned.statsFields())) {
      for (String column : columns == null ? List.<String>of() : columns) {
        if ((pinned.caseSensitive() ? schema.findField(column)
            : schema.caseInsensitiveFindField(column)) == null) {
          throw new ValidationException("Cannot find field '%s' in the table's schema", column);
        }
      }
    }
    return pinned;
  }

  private static PlanTableScanRequest pin(TableMetadata metadata, PlanTableScanRequest request) {
    if (request.startSnapshotId() != null || request.endSnapshotId() != null) {
      requireSnapshot(metadata, request.startSnapshotId());
      requireSnapshot(metadata, request.endSnapshotId());
      Long end = request.endSnapshotId() != null ? request.endSnapshotId()
          : metadata.currentSnapshot() == null ? null : metadata.currentSnapshot().snapshotId();
      return PlanTableScanRequest.builder().withStartSnapshotId(request.startSnapshotId())
          .withEndSnapshotId(end).withSelect(request.select()).withFilter(request.filter())
          .withCaseSensitive(request.caseSensitive())
          .withUseSnapshotSchema(request.useSnapshotSchema())
          .withStatsFields(request.statsFields())
          .withMinRowsRequested(request.minRowsRequested()).build();
    }
    Long snapshot = request.snapshotId();
    if (snapshot == null) {
      snapshot = metadata.currentSnapshot() == null ? null
          : metadata.currentSnapshot().snapshotId();
    } else {
      requireSnapshot(metadata, snapshot);
    }
    return PlanTableScanRequest.builder().withSnapshotId(snapshot).withSelect(request.select())
        .withFilter(request.filter()).withCaseSensitive(request.caseSensitive())
        .withUseSnapshotSchema(request.useSnapshotSchema())
        .withStatsFields(request.statsFields())
        .withMinRowsRequested(request.minRowsRequested()).build();
  }

  /** Whether the pinned request reads nothing at all: a table without a snapshot yet. */
  static boolean empty(PlanTableScanRequest pinned) {
    return pinned.snapshotId() == null && pinned.endSnapshotId() == null;
  }

  /**
   * The data manifests a scan may read, in a fixed order (the manifest lists' own): the ranges
   * of plan tasks are ranges of this list. Reads only manifest lists.
   */
  static List<ManifestFile> dataManifests(TableMetadata metadata, FileIO io,
      PlanTableScanRequest pinned) {
    Map<String, ManifestFile> manifests = new LinkedHashMap<>();
    for (Snapshot snapshot : snapshots(table(metadata, io, manifest -> true), pinned)) {
      for (ManifestFile manifest : snapshot.dataManifests(io)) {
        manifests.putIfAbsent(manifest.path(), manifest);
      }
    }
    return new ArrayList<>(manifests.values());
  }

  /**
   * The scan the request asks for, on the data manifests {@code keep} accepts; with
   * {@code executor} it reads manifests in parallel on it (in no fixed order), without in their
   * order, one at a time.
   */
  static Scan<?, FileScanTask, ?> scan(TableMetadata metadata, FileIO io,
      PlanTableScanRequest pinned, Predicate<ManifestFile> keep, ExecutorService executor) {
    Table table = table(metadata, io, keep);
    if (pinned.endSnapshotId() != null) {
      IncrementalAppendScan incremental =
          table.newIncrementalAppendScan().toSnapshot(pinned.endSnapshotId());
      return configured(pinned.startSnapshotId() == null ? incremental
          : incremental.fromSnapshotInclusive(pinned.startSnapshotId()), pinned, executor);
    }
    return configured(table.newScan().useSnapshot(pinned.snapshotId()), pinned, executor);
  }

  private static <T extends Scan<T, FileScanTask, ?>> T configured(T scan,
      PlanTableScanRequest pinned, ExecutorService executor) {
    T configured = scan;
    if (pinned.select() != null) {
      configured = configured.select(pinned.select());
    }
    if (pinned.filter() != null) {
      configured = configured.filter(pinned.filter());
    }
    if (pinned.statsFields() != null) {
      configured = configured.includeColumnStats(pinned.statsFields());
    }
    if (pinned.minRowsRequested() != null) {
      configured = configured.minRowsRequested(pinned.minRowsRequested());
    }
    configured = configured.caseSensitive(pinned.caseSensitive());
    return executor == null ? configured : configured.planWith(executor);
  }

  private static List<Snapshot> snapshots(Table table, PlanTableScanRequest pinned) {
    if (pinned.endSnapshotId() == null) {
      return List.of(table.snapshot(pinned.snapshotId()));
    }
    Long oldest = pinned.startSnapshotId() == null ? null
        : table.snapshot(pinned.startSnapshotId()).parentId();
    List<Snapshot> snapshots = new ArrayList<>();
    SnapshotUtil.ancestorsBetween(table, pinned.endSnapshotId(), oldest).forEach(snapshots::add);
    return snapshots;
  }

  /** Whether the table still has every snapshot a pinned request reads. */
  static boolean stillReadable(TableMetadata metadata, PlanTableScanRequest pinned) {
    for (Long id : new Long[] {pinned.snapshotId(), pinned.startSnapshotId(),
        pinned.endSnapshotId()}) {
      if (id != null && metadata.snapshot(id) == null) {
        return false;
      }
    }
    return true;
  }

  private static void requireSnapshot(TableMetadata metadata, Long id) {
    if (id != null && metadata.snapshot(id) == null) {
      throw new NotFoundException("The table has no snapshot %s", id);
    }
  }

  /** The table as iceberg-core scans it, each snapshot showing only the data manifests kept. */
  private static Table table(TableMetadata metadata, FileIO io, Predicate<ManifestFile> keep) {
    return new BaseTable(new StaticTableOperations(metadata.metadataFileLocation(), io) {
      @Override
      public TableMetadata current() {
        return metadata;
      }
    }, "scan") {
      @Override
      public Snapshot currentSnapshot() {
        return limited(super.currentSnapshot(), keep);
      }

      @Override
      public Snapshot snapshot(long snapshotId) {
        return limited(super.snapshot(snapshotId), keep);
      }
    };
  }

  /**
   * {@code snapshot} with only the data manifests {@code keep} accepts; its delete manifests
   * are all there, as every data file's deletes may be in any of them.
   */
  private static Snapshot limited(Snapshot snapshot, Predicate<ManifestFile> keep) {
    if (snapshot == null) {
      return null;
    }
    return (Snapshot) Proxy.newProxyInstance(TableScans.class.getClassLoader(),
        new Class<?>[] {Snapshot.class}, (proxy, method, args) -> {
          try {
            Object result = method.invoke(snapshot, args);
            if (method.getName().equals("dataManifests")
                || method.getName().equals("allManifests")) {
              @SuppressWarnings("unchecked")
              List<ManifestFile> manifests = (List<ManifestFile>) result;
              return manifests.stream().filter(manifest -> manifest.content()
                  == ManifestContent.DELETES || keep.test(manifest)).toList();
            }
            return result;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
