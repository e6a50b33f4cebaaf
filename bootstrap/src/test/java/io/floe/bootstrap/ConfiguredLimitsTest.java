package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.application.iceberg.MetadataLimits;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits an operator sets are the ones every way in applies: a schema too deep or too wide
 * for them, a commit whose metadata would outgrow the size limit, a metadata file to register
 * that is larger: each refused with a 400, nothing written.
 */
class ConfiguredLimitsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SIZE = 64 * 1024;

  @TempDir static Path directory;
  private static TestFloe floe;
  private static IcebergHttp admin;

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory,
        settings -> settings.metadataLimits(new MetadataLimits(4, 50, SIZE)));
    admin = new IcebergHttp(floe, floe.newOrg());
    assertThat(admin.post("/namespaces", "{\"namespace\":[\"sales\"]}").status()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @Test
  void schemasAreMeasuredAgainstTheConfiguredDepthAndFields() {
    IcebergHttp.Reply deep = admin.post("/namespaces/sales/tables", table("deep", 1, 4));
    assertThat(deep.status()).isEqualTo(400);
    assertThat(deep.message()).contains("more than 4 levels deep");
    IcebergHttp.Reply wide = admin.post("/namespaces/sales/tables", table("wide", 51, 0));
    assertThat(wide.status()).isEqualTo(400);
    assertThat(wide.message()).contains("more than 50 fields");
    assertThat(admin.get("/namespaces/sales/tables/deep").status()).isEqualTo(404);
    assertThat(admin.get("/namespaces/sales/tables/wide").status()).isEqualTo(404);

    assertThat(admin.post("/namespaces/sales/tables", table("fits", 46, 3)).status())
        .isEqualTo(200);
  }

  @Test
  void aCommitWhoseMetadataWouldOutgrowTheSizeLimitWritesNothing() throws Exception {
    IcebergHttp.Reply created = admin.post("/namespaces/sales/tables", table("growing", 2, 0));
    assertThat(created.status()).isEqualTo(200);
    Path metadataDir = Path.of(URI.create(created.body().path("metadata-location").asText()))
        .getParent();
    List<Path> before = files(metadataDir);

    IcebergHttp.Reply grown = admin.post("/namespaces/sales/tables/growing",
        setProperty("padding", "x".repeat(SIZE)));
    assertThat(grown.status()).isEqualTo(400);
    assertThat(grown.message()).startsWith("The table's new metadata is larger than " + SIZE
        + " bytes");
    assertThat(files(metadataDir)).isEqualTo(before);
    assertThat(admin.post("/namespaces/sales/tables/growing", setProperty("owner", "ops"))
        .status()).isEqualTo(200);
  }

  @Test
  void aMetadataFileLargerThanTheLimitIsNotRegistered() throws Exception {
    IcebergHttp.Reply created = admin.post("/namespaces/sales/tables", table("source", 2, 0));
    Path file = Path.of(URI.create(created.body().path("metadata-location").asText()));
    ObjectNode metadata = (ObjectNode) JSON.readTree(Files.readString(file));
    ((ObjectNode) metadata.path("properties")).put("padding", "x".repeat(SIZE));
    Path large = file.getParent().getParent().getParent().resolve("large.metadata.json");
    Files.writeString(large, JSON.writeValueAsString(metadata));

    IcebergHttp.Reply registered = admin.post("/namespaces/sales/register",
        JSON.writeValueAsString(Map.of("name", "large", "metadata-location",
            large.toUri().toString())));
    assertThat(registered.status()).isEqualTo(400);
    assertThat(admin.get("/namespaces/sales/tables/large").status()).isEqualTo(404);
  }

  /**
   * A table of {@code columns} int columns, the first of them nested {@code lists} lists deep
   * (a column of {@code lists} lists is {@code lists + 1} levels deep).
   */
  private static String table(String name, int columns, int lists) {
    String nested = "\"int\"";
    int id = 1000;
    for (int i = 0; i < lists; i++) {
      nested = "{\"type\":\"list\",\"element-id\":" + ++id + ",\"element\":" + nested
          + ",\"element-required\":false}";
    }
    String type = nested;
    String fields = IntStream.rangeClosed(1, columns).mapToObj(i -> "{\"id\":" + i
        + ",\"name\":\"c" + i + "\",\"required\":false,\"type\":" + (i == 1 ? type : "\"int\"")
        + "}").collect(Collectors.joining(","));
    return "{\"name\":\"" + name + "\",\"schema\":{\"type\":\"struct\",\"fields\":[" + fields
        + "]}}";
  }

  private static String setProperty(String key, String value) {
    return "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\""
        + key + "\":\"" + value + "\"}}]}";
  }

  private static List<Path> files(Path dir) throws Exception {
    try (Stream<Path> listed = Files.list(dir)) {
      return listed.sorted().toList();
    }
  }
}
