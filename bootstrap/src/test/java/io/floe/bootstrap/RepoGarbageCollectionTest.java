package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Garbage collection of a repo whose tables were written through Floe, on a local bucket: what a
 * branch or tag reaches stays (a file pinned only by an old tag among it), what nothing reaches
 * goes once it is older than the grace period (the files of a deleted branch's commit, the
 * metadata file of an abandoned replay, and the Icechunk objects of that commit).
 */
@FloeServerTest
class RepoGarbageCollectionTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "granule", Types.StringType.get()));
  private static final TableIdentifier GRANULES = TableIdentifier.of("weather", "granules");

  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;
  private ManagementApi api;
  private IcechunkRepository repository;
  private Path repoDirectory;
  private String kept;
  private String pinned;
  private String abandoned;
  private Path abandonedReplay;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  /**
   * A table on main with one file; a file appended on a branch that only a tag still names; a
   * file appended on a branch that was then deleted; and a metadata file no commit points at.
   */
  @BeforeEach
  void repoWithLiveAndAbandonedFiles() throws IOException {
    org = floe.newOrg();
    catalog = floe.catalog(org, Map.of());
    api = new ManagementApi(floe.server().port(), org.token());
    ManagementApi.Reply created = api.post(repos(), Map.of("name", "weather"));
    assertThat(created.status()).isEqualTo(201);
    repoDirectory = Path.of(URI.create(created.body().get("location").asText()));
    repository =
        IcechunkRepository.open(BucketObjectStore.of(new LocalBucketStorage(repoDirectory)),
        StoragePath.root());

    Table table = catalog.createTable(GRANULES, SCHEMA);
    kept = append(table, "kept");
    repository.createBranch("scratch", repository.resolve(Ref.branch("main")));
    pinned = append(catalog.loadTable(TableIdentifier.of("weather@scratch", "granules")),
        "pinned");
    repository.createTag("old", repository.resolve(Ref.branch("scratch")));
    repository.deleteBranch("scratch");
    repository.createBranch("abandoned", repository.resolve(Ref.branch("main")));
    abandoned = append(catalog.loadTable(TableIdentifier.of("weather@abandoned", "granules")),
        "abandoned");
    repository.deleteBranch("abandoned");
    // What a replay that lost its race leaves: a metadata file written, then never committed.
    TableMetadata current = ((BaseTable) catalog.loadTable(GRANULES)).operations().current();
    OutputFile replay = table.io().newOutputFile(table.location() + "/metadata/99999-"
        + UUID.randomUUID() + ".metadata.json");
    TableMetadataParser.write(current, replay);
    abandonedReplay = Path.of(URI.create(replay.location()));
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  @Test
  void aDryRunReportsWhatWouldGoAndItsSizeAndDeletesNothing() throws IOException {
    age(Duration.ofHours(2));
    Set<Path> before = files();

    JsonNode report = gc(true, 3600);

    assertThat(files()).isEqualTo(before);
    assertThat(report.get("dry_run").asBoolean()).isTrue();
    Set<String> keys = keys(report);
    assertThat(keys).contains(relative(abandoned), relative(abandonedReplay.toUri().toString()))
        .doesNotContain(relative(kept), relative(pinned));
    // The deleted branch's commit: its snapshot and transaction log are Icechunk's garbage.
    assertThat(report.get("objects")).anySatisfy(o ->
        assertThat(o.get("kind").asText()).isEqualTo("snapshot"));
    assertThat(report.get("objects")).anySatisfy(o ->
        assertThat(o.get("kind").asText()).isEqualTo("transaction_log"));
    long sum = 0;
    for (JsonNode object : report.get("objects")) {
      Path file = repoDirectory.resolve(object.get("key").asText());
      assertThat(object.get("size_bytes").asLong()).isEqualTo(Files.size(file));
      sum += Files.size(file);
    }
    assertThat(report.get("total_bytes").asLong()).isEqualTo(sum).isPositive();
  }

  @Test
  void deletingRemovesTheUnreachableAndKeepsWhatBranchesAndTagsReach() throws IOException {
    age(Duration.ofHours(2));

    JsonNode report = gc(false, 3600);

    assertThat(report.get("dry_run").asBoolean()).isFalse();
    assertThat(keys(report)).isNotEmpty();
    for (String key : keys(report)) {
      assertThat(repoDirectory.resolve(key)).doesNotExist();
    }
    assertThat(Path.of(URI.create(abandoned))).doesNotExist();
    assertThat(abandonedReplay).doesNotExist();
    assertThat(Path.of(URI.create(kept))).exists();
    assertThat(Path.of(URI.create(pinned))).exists();
    // Both versions still read in full: every file a scan plans is there.
    assertThat(dataFiles(catalog.loadTable(GRANULES))).containsExactly(kept);
    assertThat(dataFiles(catalog.loadTable(TableIdentifier.of("weather@old", "granules"))))
        .containsExactlyInAnyOrder(kept, pinned);
    assertThat(repository.log(Ref.tag("old"))).isNotEmpty();
    // Nothing is left to collect, and the change is on record.
    assertThat(gc(true, 0).get("objects")).isEmpty();
    assertThat(api.get("/orgs/" + org.warehouse() + "/audit").body().toString())
        .contains("repo.gc");
  }

  @Test
  void unreachableFilesYoungerThanTheGracePeriodSurvive() {
    JsonNode report = gc(false, 3600);

    assertThat(report.get("objects")).isEmpty();
    assertThat(report.get("spared_young").asLong()).isPositive();
    assertThat(Path.of(URI.create(abandoned))).exists();
    assertThat(abandonedReplay).exists();
  }

  @Test
  void onlyAdminsCollectAndBadInputIsRefused() {
    TestFloe.Org member = new OrgAccess(floe, org).newUser("reader");
    ManagementApi asMember = new ManagementApi(floe.server().port(), member.token());
    assertThat(asMember.post(repos() + "/weather/gc", Map.of()).status()).isEqualTo(403);
    assertThat(api.post(repos() + "/weather/gc", Map.of("grace_seconds", -1)).status())
        .isBetween(400, 422);
    assertThat(api.post(repos() + "/weather/gc", Map.of("dry_run", "no")).status())
        .isBetween(400, 422);
    assertThat(api.post(repos() + "/nothing/gc", Map.of()).status()).isEqualTo(404);
  }

  @Test
  void theCommandLineIsADryRunUnlessToldToDelete() {
    age(Duration.ofDays(1));

    String dryRun = cli("repos", "gc", "weather", "--grace", "1h");
    assertThat(dryRun).contains("Would delete ", "Nothing was deleted", "table_file",
        relative(abandoned));
    assertThat(Path.of(URI.create(abandoned))).exists();
    // The default grace period (three days) spares what is a day old.
    assertThat(cli("repos", "gc", "weather", "--delete")).contains("Deleted 0 objects");
    assertThat(Path.of(URI.create(abandoned))).exists();

    assertThat(cli("repos", "gc", "weather", "--grace", "1h", "--delete"))
        .contains("Deleted ", relative(abandoned));
    assertThat(Path.of(URI.create(abandoned))).doesNotExist();
    assertThat(Path.of(URI.create(pinned))).exists();
  }

  @Test
  void aVersionWhoseManifestListNamesAnotherTablesManifestFailsTheCollection()
      throws IOException {
    // A writer of granules commits a manifest it placed in another table's directory.
    Table stations = catalog.createTable(TableIdentifier.of("weather", "stations"), SCHEMA);
    String planted = stations.location() + "/metadata/planted-m0.avro";
    ManifestWriter<DataFile> writer = ManifestFiles.write(2, PartitionSpec.unpartitioned(),
        stations.io().newOutputFile(planted), null);
    try (writer) {
      writer.add(DataFiles.builder(PartitionSpec.unpartitioned()).withPath(kept)
          .withFileSizeInBytes(1).withRecordCount(1).build());
    }
    catalog.loadTable(GRANULES).newFastAppend().appendManifest(writer.toManifestFile()).commit();
    age(Duration.ofHours(2));
    Set<Path> before = files();

    ManagementApi.Reply refused = api.post(repos() + "/weather/gc",
        Map.of("dry_run", false, "grace_seconds", 3600));

    assertThat(refused.status()).as(String.valueOf(refused.body())).isEqualTo(403);
    // Named as the manifest list spells it (Hadoop's file:/ for a local file).
    assertThat(refused.body().get("detail").asText())
        .contains(planted.substring(planted.indexOf("/tables/")))
        .contains("outside the table's location");
    assertThat(files()).isEqualTo(before);
  }

  private JsonNode gc(boolean dryRun, long graceSeconds) {
    ManagementApi.Reply reply = api.post(repos() + "/weather/gc",
        Map.of("dry_run", dryRun, "grace_seconds", graceSeconds));
    assertThat(reply.status()).as(String.valueOf(reply.body())).isEqualTo(200);
    return reply.body();
  }

  private String cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.server().port(),
        "--token", org.token(), "--org", org.warehouse()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = FloeCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    assertThat(command.execute(all.toArray(String[]::new))).as(err.toString()).isZero();
    return out.toString();
  }

  private String repos() {
    return "/orgs/" + org.warehouse() + "/repos";
  }

  /** Appends a data file that really exists; returns its URI. */
  private static String append(Table table, String name) {
    String location = table.location() + "/data/" + name + "-" + UUID.randomUUID() + ".parquet";
    OutputFile output = table.io().newOutputFile(location);
    byte[] bytes = ("rows of " + name).getBytes(StandardCharsets.UTF_8);
    try (OutputStream stream = output.createOrOverwrite()) {
      stream.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file = DataFiles.builder(PartitionSpec.unpartitioned()).withPath(location)
        .withFileSizeInBytes(bytes.length).withRecordCount(1).build();
    table.newFastAppend().appendFile(file).commit();
    return location;
  }

  private static Set<String> dataFiles(Table table) {
    Set<String> present = new TreeSet<>();
    table.newScan().planFiles().forEach(task -> {
      assertThat(Path.of(URI.create(task.file().location()))).exists();
      present.add(task.file().location());
    });
    return present;
  }

  /** Makes every file of the repo look as if it were written {@code age} ago. */
  private void age(Duration age) {
    FileTime then = FileTime.from(Instant.now().minus(age));
    for (Path file : files()) {
      try {
        Files.setLastModifiedTime(file, then);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private Set<Path> files() {
    try (Stream<Path> walk = Files.walk(repoDirectory)) {
      return new TreeSet<>(walk.filter(Files::isRegularFile).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String relative(String uri) {
    return repoDirectory.relativize(Path.of(URI.create(uri))).toString();
  }

  private static Set<String> keys(JsonNode report) {
    Set<String> keys = new TreeSet<>();
    report.get("objects").forEach(o -> keys.add(o.get("key").asText()));
    return keys;
  }
}
