package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.application.port.out.inmemory.InMemoryMetadataFileIo;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A load's metadata JSON is made once per metadata file and snapshot mode, from one parse of the
 * file, and is exactly what Iceberg's parser writes for that metadata (trimmed to the referenced
 * snapshots for {@code snapshots=refs}).
 */
class SerializedMetadataTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BucketConfig BUCKET = new BucketConfig(UUID.randomUUID(),
      UUID.randomUUID(), new CatalogName("main"), StoragePlatform.S3_COMPATIBLE, "data",
      new StoragePath("warehouse"), Optional.empty(), Optional.of("us-east-1"), true,
      BucketCredentials.staticKeys("AK", "SK"), true);

  private final InMemoryMetadataFileIo storage = new InMemoryMetadataFileIo();
  private final AtomicInteger opened = new AtomicInteger();
  private MetadataFiles files;
  private String location;
  private TableMetadata written;

  @BeforeEach
  void writeATableOfManySnapshots() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("history", Map.of());
    catalog.createNamespace(Namespace.of("n"));
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    Table table = catalog.createTable(TableIdentifier.of("n", "t"), schema,
        PartitionSpec.unpartitioned(), "s3://data/warehouse/n/t", Map.of());
    for (int i = 0; i < 40; i++) {
      table.newFastAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath("s3://data/warehouse/n/t/data/" + i + ".parquet")
          .withFileSizeInBytes(100).withRecordCount(1).build()).commit();
    }
    TableMetadata history = ((HasTableOperations) table).operations().current();
    written = new MetadataFiles(storage).writeTable(BUCKET, history, Optional.empty());
    location = written.metadataFileLocation();
    MetadataFileIoProvider counting = bucket -> new CountingFileIo(storage.fileIo(bucket));
    files = new MetadataFiles(counting);
  }

  @Test
  void theWholeMetadataIsWhatIcebergsParserWritesAndIsMadeFromOneRead() throws IOException {
    SerializedMetadata first = files.tableJson(BUCKET, location, SnapshotMode.ALL);
    SerializedMetadata again = files.tableJson(BUCKET, location, SnapshotMode.ALL);

    assertThat(again).isSameAs(first);
    assertThat(opened).as("the file was read once").hasValue(1);
    assertThat(tree(first)).isEqualTo(JSON.readTree(TableMetadataParser.toJson(written)));
    assertThat(tree(first).path("snapshots")).hasSize(40);
  }

  @Test
  void refsModeCarriesOnlyTheSnapshotsBranchesAndTagsReference() throws IOException {
    SerializedMetadata refs = files.tableJson(BUCKET, location, SnapshotMode.REFS);
    files.tableJson(BUCKET, location, SnapshotMode.ALL);

    Set<Long> referenced = written.refs().values().stream().map(ref -> ref.snapshotId())
        .collect(Collectors.toSet());
    List<Long> carried = new ArrayList<>();
    tree(refs).path("snapshots").forEach(s -> carried.add(s.path("snapshot-id").asLong()));
    assertThat(carried).containsExactlyInAnyOrderElementsOf(referenced);
    assertThat(tree(refs).path("current-snapshot-id").asLong())
        .isEqualTo(written.currentSnapshot().snapshotId());
    assertThat(refs.length()).isLessThan(files.tableJson(BUCKET, location, SnapshotMode.ALL)
        .length() / 3);
    assertThat(opened).as("both modes made from one read of the file").hasValue(1);
    assertThat(written.snapshots()).extracting(Snapshot::snapshotId).hasSize(40);
  }

  @Test
  void concurrentFirstLoadsOfOneFileShareOneReadAndOneSerialization() throws Exception {
    int loaders = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(loaders);
    try {
      List<Future<SerializedMetadata>> loads = new ArrayList<>();
      for (int i = 0; i < loaders; i++) {
        loads.add(threads.submit(() -> {
          start.await();
          return files.tableJson(BUCKET, location, SnapshotMode.ALL);
        }));
      }
      start.countDown();
      SerializedMetadata first = loads.get(0).get();
      for (Future<SerializedMetadata> load : loads) {
        assertThat(load.get()).isSameAs(first);
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(opened).hasValue(1);
  }

  private static JsonNode tree(SerializedMetadata metadata) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metadata.writeTo(out);
    return JSON.readTree(out.toByteArray());
  }

  /** Counts the files opened for reading. */
  private final class CountingFileIo implements FileIO {
    private final FileIO io;

    CountingFileIo(FileIO io) {
      this.io = io;
    }

    @Override
    public InputFile newInputFile(String path) {
      opened.incrementAndGet();
      return io.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      return io.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      io.deleteFile(path);
    }
  }
}
