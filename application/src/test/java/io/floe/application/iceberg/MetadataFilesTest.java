package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.inmemory.InMemoryMetadataFileIo;
import io.floe.application.testbed.Testbed;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
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
}
