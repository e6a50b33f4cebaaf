package io.floe.application.iceberg.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Row lineage survives server-side replay: eight writers append to one v3 table from the same
 * head, each commit after the first is replayed onto the head the others made, and every row
 * keeps a row id of its own. Each landed snapshot's {@code first-row-id} and added rows make a
 * range no other snapshot's overlaps, the table's {@code next-row-id} is the rows ever added,
 * and every live data file's ids (as a reader inherits them) are disjoint from every other's.
 * Writers alternate between fast appends (their manifests reused, their first row id left for
 * the new manifest list to assign) and merging appends (their merged manifests also list older
 * files, so only the files they added are appended again: reading them from the client's
 * manifest list gives them the client's first row ids, which iceberg-core's manifest writer
 * drops for an added entry).
 */
class RowLineageReplayTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final TableIdentifier ID = TableIdentifier.of("db", "lineage");
  private static final int WRITERS = 8;

  private final InMemoryFileIO io = new InMemoryFileIO();
  private final ReplayTarget target = new ReplayTarget(ID.toString(), io, (what, location) -> { });
  private long nextSnapshotId = 1000;

  private TableMetadata v3Table() {
    return TableMetadata.newTableMetadata(SCHEMA, PartitionSpec.unpartitioned(),
        SortOrder.unsorted(), "mem://warehouse/lineage", Map.of(
            TableProperties.FORMAT_VERSION, "3",
            // A merging append merges as soon as there are two manifests.
            TableProperties.MANIFEST_MIN_MERGE_COUNT, "1"));
  }

  private DataFile file(String name, long rows) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("mem://warehouse/lineage/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(100 + rows).withRecordCount(rows)
        .build();
  }

  /** What a client commits: one append of {@code files} built on {@code base}, as its request. */
  private UpdateTableRequest append(TableMetadata base, boolean merging, DataFile... files) {
    StagedTableOperations ops = new StagedTableOperations(base, io, nextSnapshotId++);
    BaseTable table = new BaseTable(ops, ID.toString());
    var append = merging ? table.newAppend() : table.newFastAppend();
    for (DataFile file : files) {
      append.appendFile(file);
    }
    append.commit();
    TableMetadata staged = ops.staged().orElseThrow();
    return UpdateTableRequest.create(ID, List.of(new UpdateRequirement.AssertRefSnapshotID(
        "main", base.currentSnapshot() == null ? null : base.currentSnapshot().snapshotId())),
        staged.changes().subList(base.changes().size(), staged.changes().size()));
  }

  /** The request applied as the server does: directly, or replayed when its base moved on. */
  private TableMetadata land(TableMetadata current, UpdateTableRequest request) {
    for (UpdateRequirement requirement : request.requirements()) {
      try {
        requirement.validate(current);
      } catch (CommitFailedException conflict) {
        return new ChangeReplay().rebase(target, current, request, conflict);
      }
    }
    TableMetadata.Builder builder = TableMetadata.buildFrom(current);
    for (MetadataUpdate update : request.updates()) {
      update.applyTo(builder);
    }
    return builder.build();
  }

  @Test
  void eightRacingAppendsReplayedOntoOneV3TableEachGetRowIdsOfTheirOwn() throws Exception {
    TableMetadata empty = v3Table();
    TableMetadata first = land(empty, append(empty, false, file("seed", 10)));
    assertThat(first.nextRowId()).isEqualTo(10);
    List<UpdateTableRequest> racing = new ArrayList<>();
    long added = 10;
    for (int writer = 0; writer < WRITERS; writer++) {
      long rows = 3 + writer;
      racing.add(append(first, writer % 2 == 1, file("w" + writer + "a", rows),
          file("w" + writer + "b", rows * 2)));
      added += rows * 3;
    }
    TableMetadata head = first;
    for (UpdateTableRequest request : racing) {
      head = land(head, request);
    }

    assertThat(head.snapshots()).hasSize(WRITERS + 1);
    assertThat(head.nextRowId()).isEqualTo(added);
    TreeMap<Long, Long> snapshotRanges = new TreeMap<>();
    for (Snapshot snapshot : head.snapshots()) {
      assertThat(snapshot.firstRowId()).isNotNull();
      snapshotRanges.put(snapshot.firstRowId(), snapshot.firstRowId() + snapshot.addedRows());
    }
    assertDisjointWithin(snapshotRanges, head.nextRowId());

    TreeMap<Long, Long> fileRanges = new TreeMap<>();
    long liveRows = 0;
    try (CloseableIterable<FileScanTask> tasks =
        new BaseTable(new StagedTableOperations(head, io, 0), ID.toString()).newScan()
            .planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        assertThat(file.firstRowId()).as("first row id of %s", file.location()).isNotNull();
        assertThat(fileRanges.put(file.firstRowId(), file.firstRowId() + file.recordCount()))
            .as("another file starts at row id %s", file.firstRowId()).isNull();
        liveRows += file.recordCount();
      }
    }
    assertThat(fileRanges).hasSize(1 + 2 * WRITERS);
    assertThat(liveRows).isEqualTo(added);
    assertDisjointWithin(fileRanges, head.nextRowId());
  }

  /** Ranges [start, end) that do not overlap and end by {@code limit}. */
  private static void assertDisjointWithin(TreeMap<Long, Long> ranges, long limit) {
    long end = 0;
    for (Map.Entry<Long, Long> range : ranges.entrySet()) {
      assertThat(range.getKey()).as("range starting at %s overlaps the one before, ending at %s",
          range.getKey(), end).isGreaterThanOrEqualTo(end);
      end = range.getValue();
    }
    assertThat(end).isLessThanOrEqualTo(limit);
  }
}
