package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.inmemory.InMemoryMetadataFileIo;
import io.floe.application.testbed.Testbed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class MetadataFilesTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()));

  private final Testbed testbed = new Testbed();
  private final InMemoryMetadataFileIo io = new InMemoryMetadataFileIo();
  private final MetadataFiles files = new MetadataFiles(io);

  @Test
  void aVersionJustWrittenIsReadWithoutParsingItsFileAgain() {
    TableMetadata first = files.writeTable(testbed.bucket, TableMetadata.newTableMetadata(SCHEMA,
        PartitionSpec.unpartitioned(), SortOrder.unsorted(), "s3://data/t", Map.of()),
        Optional.empty());
    TableMetadata second = files.writeTable(testbed.bucket, TableMetadata.buildFrom(first)
        .setProperties(Map.of("owner", "ops")).build(), Optional.of(first.metadataFileLocation()));

    // What the next commit reads is the version it wrote, not a parse of the file...
    assertThat(files.readTable(testbed.bucket, second.metadataFileLocation())).isSameAs(second);
    // ...and that is what the file holds.
    TableMetadata parsed = TableMetadataParser.read(io.fileIo(testbed.bucket),
        second.metadataFileLocation());
    assertThat(TableMetadataParser.toJson(second)).isEqualTo(TableMetadataParser.toJson(parsed));
    assertThat(parsed.previousFiles()).extracting(TableMetadata.MetadataLogEntry::file)
        .containsExactly(first.metadataFileLocation());
  }

  @Test
  void aFileLargerThanTheLimitIsRefusedUnparsedCompressedOrNot() throws IOException {
    TableMetadata table = files.writeTable(testbed.bucket, TableMetadata.newTableMetadata(SCHEMA,
        PartitionSpec.unpartitioned(), SortOrder.unsorted(), "s3://data/t", Map.of()),
        Optional.empty());
    byte[] json = TableMetadataParser.toJson(table).getBytes(StandardCharsets.UTF_8);
    MetadataFiles bounded = new MetadataFiles(io,
        MetadataLimits.DEFAULTS.withMaxMetadataBytes(json.length - 1));
    assertThatThrownBy(() -> bounded.readTable(testbed.bucket, table.metadataFileLocation()))
        .isInstanceOf(MetadataLimitException.class)
        .hasMessageContaining("is larger than " + (json.length - 1) + " bytes");
    // A compressed file is measured unpacked: a small file cannot unpack into a large one.
    String compressed = "s3://data/t/metadata/00001-x.gz.metadata.json";
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(packed)) {
      gzip.write(json);
      gzip.write(" ".repeat(1_000_000).getBytes(StandardCharsets.UTF_8));
    }
    ((InMemoryFileIO) io.fileIo(testbed.bucket)).addFile(compressed, packed.toByteArray());
    assertThat(packed.size()).isLessThan(json.length + 10_000);
    MetadataFiles roomy = new MetadataFiles(io,
        MetadataLimits.DEFAULTS.withMaxMetadataBytes(json.length + 500_000));
    assertThatThrownBy(() -> roomy.readTable(testbed.bucket, compressed))
        .isInstanceOf(MetadataLimitException.class);
    assertThat(new MetadataFiles(io).readTable(testbed.bucket, compressed).uuid())
        .isEqualTo(table.uuid());
  }

  @Test
  void metadataThatWouldBreakTheLimitsIsNotWritten() {
    MetadataFiles bounded = new MetadataFiles(io, MetadataLimits.DEFAULTS.withMaxMetadataBytes(
        1_000));
    TableMetadata large = TableMetadata.newTableMetadata(SCHEMA, PartitionSpec.unpartitioned(),
        SortOrder.unsorted(), "s3://data/big", Map.of("padding", "x".repeat(1_000)));
    assertThatThrownBy(() -> bounded.writeTable(testbed.bucket, large, Optional.empty()))
        .isInstanceOf(MetadataLimitException.class)
        .hasMessageStartingWith("The table's new metadata is larger than 1000 bytes");
    MetadataFiles narrow = new MetadataFiles(io, MetadataLimits.DEFAULTS.withMaxSchemaFields(1));
    TableMetadata wide = TableMetadata.newTableMetadata(new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get())),
        PartitionSpec.unpartitioned(), SortOrder.unsorted(), "s3://data/wide", Map.of());
    assertThatThrownBy(() -> narrow.writeTable(testbed.bucket, wide, Optional.empty()))
        .hasMessageContaining("more than 1 fields");
    assertThat(io.written()).isEmpty();
  }
}
