package io.floe.adapters.rest.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.iceberg.SerializedMetadata;
import io.floe.application.port.in.table.LoadTableUseCase.LoadedTable;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * loadTable's body, written around the shared metadata JSON, is what Iceberg's own serializer
 * writes for the same response, with and without storage access; the length it announces is the
 * length it writes.
 */
class LoadTableBodiesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TableMetadata METADATA = TableMetadata.newTableMetadata(
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "näme \"quoted\"", Types.StringType.get())),
      PartitionSpec.unpartitioned(), SortOrder.unsorted(), "s3://bucket/warehouse/t",
      Map.of("owner", "someone"));
  private static final String LOCATION =
      "s3://bucket/warehouse/t/metadata/00001-\"odd\\name\".metadata.json";

  @Test
  void withoutStorageAccessTheBodyIsIcebergsResponse() throws IOException {
    assertSameAsIcebergWrites(loaded(Map.of(), List.of()));
  }

  @Test
  void withConfigurationAndCredentialsTheBodyIsIcebergsResponse() throws IOException {
    Credential credential = ImmutableCredential.builder().prefix("s3://bucket/warehouse/t")
        .config(Map.of("s3.access-key-id", "AK", "s3.secret-access-key", "SK",
            "s3.session-token", "token/with+odd=chars"))
        .build();
    assertSameAsIcebergWrites(loaded(Map.of("s3.remote-signing-enabled", "true",
        "s3.signer.uri", "http://127.0.0.1:1/iceberg/"), List.of(credential)));
  }

  @Test
  void theGzippedBodyIsTheSameBytesInOneGzipMember() throws Exception {
    Credential credential = ImmutableCredential.builder().prefix("s3://bucket/warehouse/t")
        .config(Map.of("s3.access-key-id", "AK")).build();
    LoadedTable loaded = loaded(Map.of("k", "v"), List.of(credential));
    byte[] plain = LoadTableBodies.body(loaded).stream().readAllBytes();
    byte[] gzipped = LoadTableBodies.gzipped(loaded);
    byte[] unzipped;
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      unzipped = in.readAllBytes(); // checks the CRC and the length in the trailer too
    }
    assertThat(unzipped).isEqualTo(plain);
    // One member: a raw inflater that stops at the first final block has read everything but
    // the eight bytes of the trailer. Clients that read only the first member see it all.
    Inflater inflater = new Inflater(true);
    inflater.setInput(gzipped, 10, gzipped.length - 10);
    byte[] out = new byte[plain.length + 16];
    int n = inflater.inflate(out);
    assertThat(inflater.finished()).isTrue();
    assertThat(inflater.getRemaining()).isEqualTo(8);
    assertThat(java.util.Arrays.copyOf(out, n)).isEqualTo(plain);
    inflater.end();
  }

  @Test
  void theMetadataIsCompressedOnceAndShared() {
    LoadedTable loaded = loaded(Map.of(), List.of());
    assertThat(loaded.metadataJson().deflated()).isSameAs(loaded.metadataJson().deflated());
  }

  private static LoadedTable loaded(Map<String, String> config, List<Credential> credentials) {
    TableMetadata placed = TableMetadata.buildFrom(METADATA).discardChanges()
        .withMetadataLocation(LOCATION).build();
    return new LoadedTable(LOCATION, SerializedMetadata.of(placed), () -> placed, config,
        credentials);
  }

  private static void assertSameAsIcebergWrites(LoadedTable loaded) throws IOException {
    LoadTableBodies.Body body = LoadTableBodies.body(loaded);
    byte[] bytes = body.stream().readAllBytes();
    assertThat((long) bytes.length).isEqualTo(body.length());
    JsonNode written = JSON.readTree(bytes);
    assertThat(written).isEqualTo(JSON.readTree(RestJson.write(loaded.response())));
  }
}
