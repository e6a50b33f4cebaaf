package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.bootstrap.TestFloe.Org;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table with a prefix of its own on another bucket ({@code floe.bucket}) keeps its files and its
 * claim when dropped; the cleanup of the namespace it was dropped from empties and releases that
 * prefix, and never touches the files of a live table on the same bucket.
 */
@FloeServerTest
class DroppedTablePrefixTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final AtomicInteger TESTS = new AtomicInteger();

  private TestFloe floe;
  private Org org;
  private ManagementApi api;
  private RESTCatalog catalog;
  /** The archive bucket's nickname and the namespaces' names, this test's own. */
  private String archive;
  private String obs;
  private String live;

  @BeforeEach
  void start(TestFloe shared) {
    floe = shared;
    int test = TESTS.incrementAndGet();
    archive = "archive-" + test;
    obs = "obs-" + test;
    live = "live-" + test;
    // Local buckets are the operators' to create: the test works in the bootstrap org, in names
    // of its own.
    org = floe.operators();
    api = new ManagementApi(floe.port(), org.token());
    ManagementApi.Reply bucket = api.post(path("/buckets"), Map.of("nickname", archive,
        "platform", "local", "name", floe.localBucketDirectory(archive).toString(),
        "auth", Map.of("method", "none")));
    assertThat(bucket.status()).as("%s", bucket.body()).isEqualTo(201);
    catalog = floe.catalog(org, Map.of());
  }

  @AfterEach
  void stop() throws IOException {
    catalog.close();
  }

  @Test
  void theCleanupOfItsNamespaceEmptiesAndReleasesADroppedTablesOwnPrefix() throws IOException {
    catalog.createNamespace(Namespace.of(obs));
    catalog.createNamespace(Namespace.of(live));
    Path dropped = filesOf(createOnArchive(TableIdentifier.of(obs, "raw")));
    Path kept = filesOf(createOnArchive(TableIdentifier.of(live, "summary")));
    Files.createDirectories(dropped.resolve("data"));
    Files.writeString(dropped.resolve("data/part-0.parquet"), "written by an engine");

    assertThat(catalog.dropTable(TableIdentifier.of(obs, "raw"), true)).isTrue();
    assertThat(dropped.resolve("data/part-0.parquet")).as("a drop never deletes files").exists();
    assertThat(api.delete(namespace(obs) + "?imsure=true&immediate=true").status())
        .isEqualTo(204);

    ManagementApi.Reply report = api.post(path("/iceberg/cleanup"), Map.of());
    assertThat(report.body().path("namespaces_purged").asInt()).as("%s", report.body())
        .isEqualTo(1);
    assertThat(dropped).doesNotExist();
    assertThat(kept).isDirectory();
    assertThat(catalog.loadTable(TableIdentifier.of(live, "summary")).currentSnapshot())
        .isNull();

    // The live table's claim is the only one left on the bucket: once it too is dropped and its
    // namespace cleaned up, nothing holds a prefix there and the bucket can be removed.
    assertThat(api.delete(path("/buckets/" + archive)).status()).isEqualTo(409);
    catalog.dropTable(TableIdentifier.of(live, "summary"), false);
    api.delete(namespace(live) + "?imsure=true&immediate=true");
    api.post(path("/iceberg/cleanup"), Map.of());
    assertThat(kept).doesNotExist();
    assertThat(api.delete(path("/buckets/" + archive)).status()).isEqualTo(204);
  }

  @Test
  void aDroppedTablesPrefixStaysWhileItsNamespaceLives() throws IOException {
    catalog.createNamespace(Namespace.of(obs));
    Path dropped = filesOf(createOnArchive(TableIdentifier.of(obs, "raw")));
    catalog.dropTable(TableIdentifier.of(obs, "raw"), false);

    // Still in the namespace's lifetime: the cleanup leaves the dropped table's files alone.
    api.post(path("/iceberg/cleanup"), Map.of());
    assertThat(dropped).isDirectory();
    assertThat(api.delete(path("/buckets/" + archive)).status()).as("the claim is kept")
        .isEqualTo(409);
  }

  private Table createOnArchive(TableIdentifier identifier) {
    return catalog.buildTable(identifier, SCHEMA).withProperty("floe.bucket", archive).create();
  }

  private Path filesOf(Table table) {
    Path files = Path.of(URI.create(table.location()));
    assertThat(files).startsWith(floe.localBucketDirectory(archive));
    return files;
  }

  private String path(String suffix) {
    return "/orgs/" + org.warehouse() + suffix;
  }

  private String namespace(String name) {
    return path("/iceberg/namespaces/" + name);
  }
}
