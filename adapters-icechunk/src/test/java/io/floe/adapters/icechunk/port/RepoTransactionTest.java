package io.floe.adapters.icechunk.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarr.zarrjava.core.Attributes;
import dev.zarr.zarrjava.store.StoreHandle;
import dev.zarr.zarrjava.v3.Array;
import dev.zarr.zarrjava.v3.DataType;
import dev.zarr.zarrjava.v3.Group;
import io.floe.adapters.icechunk.engine.CommitInfo;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.PythonIcechunk;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.icechest.IcechestTables;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.adapters.storage.local.LocalFileIO;
import io.floe.application.iceberg.replay.ReplayConflictException;
import io.floe.domain.StoragePath;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One commit for arrays and tables: a {@link RepoTransaction} on a local bucket, checked in Floe
 * (one new snapshot holding the chunk and the table's new pointer) and by Python (icechunk reads
 * the array, PyIceberg the rows the pointer leads to); a failed transaction publishes nothing; a
 * lost race is replayed or refused by the rule for appends and deletes.
 */
class RepoTransactionTest {
  private static final String SCRIPT = "icechest_interop.py";
  private static final StoragePath PREFIX = new StoragePath("repos/weather");
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.optional(1, "granule", Types.StringType.get()),
      Types.NestedField.optional(2, "rows", Types.LongType.get()));

  @TempDir
  Path dir;
  private LocalBucketStorage storage;
  private LocalFileIO io;
  private IcechunkRepository repo;

  @BeforeAll
  static void requirePython() {
    assumeFalse(PythonIcechunk.skipRequested(), "floe.skipPythonInterop=true");
    PythonIcechunk.requireAvailable();
  }

  /** A repo with a float32 array /temps (8 values, chunks of 4) and an empty table granules. */
  @BeforeEach
  void createRepo() throws Exception {
    storage = new LocalBucketStorage(dir);
    io = new LocalFileIO(dir);
    repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    RepoTransaction tx = RepoTransaction.begin(repo, "main", io);
    StoreHandle root = tx.zarrStore().resolve();
    Group group = Group.create(root, new Attributes(Map.of("title", "weather")));
    group.createArray("temps", b -> b.withShape(8).withDataType(DataType.FLOAT32)
        .withChunkShape(4).withFillValue(0));
    tx.createTable("/", "granules", SCHEMA, PartitionSpec.unpartitioned(),
        "file://" + dir.resolve("warehouse/granules"));
    tx.commit("create temps and granules", Map.of());
  }

  @Test
  void theReadmeExampleCommitsAChunkAndAnAppendAsOneSnapshotThatPythonReads() throws Exception {
    assertThat(normalized(exampleSource())).contains(normalized(readmeBlock()));
    List<CommitInfo> before = repo.log(Ref.branch("main"));
    String pointerBefore = pointer(Ref.branch("main"));

    ObjectId12 id = ReadmeTransactionExample.ingest(storage, io,
        dataFile("g7", "G-7:3", "G-8:5"));

    List<CommitInfo> after = repo.log(Ref.branch("main"));
    assertThat(after).hasSize(before.size() + 1);
    assertThat(after.get(0).id()).isEqualTo(id);
    assertThat(after.get(0).parentId()).isEqualTo(before.get(0).id());
    assertThat(after.get(0).metadata()).containsEntry("author", "pipeline");
    assertThat(repo.readonlySession(Ref.snapshot(id)).chunkRefs("/temps").keySet())
        .containsExactly(ChunkIndex.of(1));
    String pointer = IcechestTables.read(repo, id).metadataLocation("granules");
    assertThat(pointer).isNotEqualTo(pointerBefore);
    TableMetadata table = TableMetadataParser.read(io, pointer);
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.previousFiles()).extracting(TableMetadata.MetadataLogEntry::file)
        .containsExactly(pointerBefore);

    JsonNode python = scan();
    assertThat(python.get("snapshot").asText()).isEqualTo(id.toString());
    assertThat(python.get("commits").asInt()).isEqualTo(after.size());
    assertThat(python.get("pointer").asText()).isEqualTo(pointer);
    assertThat(python.get("rows").toString()).isEqualTo("[[\"G-7\",3],[\"G-8\",5]]");
    assertThat(python.get("array").toString())
        .isEqualTo("[0.0,0.0,0.0,0.0,20.5,21.0,19.5,18.0]");
  }

  @Test
  void aTransactionThatFailsMidwayPublishesNothing() throws Exception {
    append(dataFile("first", "G-1:1", "G-2:2"));
    ObjectId12 tip = repo.log(Ref.branch("main")).get(0).id();

    RepoTransaction tx = RepoTransaction.begin(repo, "main", io);
    writeTemps(tx, 0, 1f, 2f, 3f, 4f);
    tx.appendFiles("granules", List.of(dataFile("second", "G-3:3")));
    // Only some rows of the first file match: iceberg-core refuses to delete it whole.
    tx.deleteWhere("granules", Expressions.equal("granule", "G-1"));

    assertThatThrownBy(() -> tx.commit("never lands", Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("some, but not all, rows match");
    assertThat(repo.log(Ref.branch("main")).get(0).id()).isEqualTo(tip);
    assertThatThrownBy(() -> tx.commit("again", Map.of()))
        .isInstanceOf(IllegalStateException.class);
    JsonNode python = scan();
    assertThat(python.get("snapshot").asText()).isEqualTo(tip.toString());
    assertThat(python.get("rows").toString()).isEqualTo("[[\"G-1\",1],[\"G-2\",2]]");
    assertThat(python.get("array").toString()).isEqualTo("[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0]");
  }

  @Test
  void anAppendThatLostTheRaceIsReplayedOntoTheWinner() throws Exception {
    int commits = repo.log(Ref.branch("main")).size();
    RepoTransaction slow = RepoTransaction.begin(repo, "main", io);
    writeTemps(slow, 0, 1f, 2f, 3f, 4f);
    slow.appendFiles("granules", List.of(dataFile("slow", "G-1:1")));
    RepoTransaction fast = RepoTransaction.begin(repo, "main", io);
    writeTemps(fast, 4, 5f, 6f, 7f, 8f);
    fast.appendFiles("granules", List.of(dataFile("fast", "G-2:2")));
    ObjectId12 winner = fast.commit("fast", Map.of());

    ObjectId12 replayed = slow.commit("slow", Map.of());

    List<CommitInfo> log = repo.log(Ref.branch("main"));
    assertThat(log).hasSize(commits + 2);
    assertThat(log.get(0).id()).isEqualTo(replayed);
    assertThat(log.get(0).parentId()).isEqualTo(winner);
    TableMetadata theirs = TableMetadataParser.read(io,
        IcechestTables.read(repo, winner).metadataLocation("granules"));
    TableMetadata ours = TableMetadataParser.read(io,
        IcechestTables.read(repo, replayed).metadataLocation("granules"));
    assertThat(ours.currentSnapshot().parentId())
        .isEqualTo(theirs.currentSnapshot().snapshotId());
    JsonNode python = scan();
    assertThat(python.get("rows").toString()).isEqualTo("[[\"G-1\",1],[\"G-2\",2]]");
    assertThat(python.get("array").toString()).isEqualTo("[1.0,2.0,3.0,4.0,5.0,6.0,7.0,8.0]");
  }

  @Test
  void aDeleteReplaysOnlyWhenTheWinnerAddedNoRowsItsPredicateMayMatch() {
    append(dataFile("old", "G-1:1"));
    RepoTransaction delete = RepoTransaction.begin(repo, "main", io);
    delete.deleteWhere("granules", Expressions.equal("granule", "G-1"));
    append(dataFile("unrelated", "G-5:5"));
    delete.commit("delete G-1", Map.of());
    assertThat(scan().get("rows").toString()).isEqualTo("[[\"G-5\",5]]");

    RepoTransaction conflicting = RepoTransaction.begin(repo, "main", io);
    conflicting.deleteWhere("granules", Expressions.equal("granule", "G-9"));
    ObjectId12 winner = append(dataFile("matching", "G-9:9"));
    long winnerTableSnapshot = TableMetadataParser.read(io,
        IcechestTables.read(repo, winner).metadataLocation("granules")).currentSnapshot()
        .snapshotId();

    assertThatThrownBy(() -> conflicting.commit("delete G-9", Map.of()))
        .isInstanceOfSatisfying(ReplayConflictException.class, e -> {
          assertThat(e.table()).isEqualTo("granules");
          assertThat(e.predicate()).contains("granule", "G-9");
          assertThat(e.conflictingSnapshotId()).isEqualTo(winnerTableSnapshot);
        });
    assertThat(repo.log(Ref.branch("main")).get(0).id()).isEqualTo(winner);
    assertThat(scan().get("rows").toString()).isEqualTo("[[\"G-5\",5],[\"G-9\",9]]");
  }

  private ObjectId12 append(DataFile file) {
    RepoTransaction tx = RepoTransaction.begin(repo, "main", io);
    tx.appendFiles("granules", List.of(file));
    return tx.commit("append " + file.location(), Map.of());
  }

  private static void writeTemps(RepoTransaction tx, long offset, float... values)
      throws Exception {
    Array.open(tx.zarrStore().resolve("temps")).write(new long[] {offset},
        ucar.ma2.Array.factory(ucar.ma2.DataType.FLOAT, new int[] {values.length}, values));
  }

  private String pointer(Ref ref) {
    return IcechestTables.read(repo, ref).metadataLocation("granules");
  }

  private JsonNode scan() {
    return PythonIcechunk.runScript(SCRIPT, "scan", dir.resolve(PREFIX.value()).toString(),
        "granules", "temps");
  }

  /** A Parquet file written by pyarrow, described with the column bounds Python reports. */
  private DataFile dataFile(String name, String... rows) {
    List<String> args = new ArrayList<>();
    args.add("data-file");
    args.add(dir.resolve("warehouse/granules/data/" + name + ".parquet").toString());
    args.addAll(List.of(rows));
    JsonNode f = PythonIcechunk.runScript(SCRIPT, args.toArray(String[]::new));
    long count = f.get("count").asLong();
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(f.get("location").asText())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(f.get("size").asLong())
        .withMetrics(new Metrics(count, null, Map.of(1, count, 2, count), Map.of(1, 0L, 2, 0L),
            null, bounds(f.get("lower")), bounds(f.get("upper"))))
        .build();
  }

  private static Map<Integer, ByteBuffer> bounds(JsonNode values) {
    return Map.of(
        1, Conversions.toByteBuffer(Types.StringType.get(), values.get("granule").asText()),
        2, Conversions.toByteBuffer(Types.LongType.get(), values.get("rows").asLong()));
  }

  private static String readmeBlock() throws Exception {
    Matcher m = Pattern.compile("(?ms)^## Arrays and tables in one commit \\(Java\\).*?^```java\\n"
        + "(.*?)^```$").matcher(Files.readString(repoRoot().resolve("docs/repos.md")));
    assertThat(m.find()).as("docs/repos.md section 'Arrays and tables in one commit (Java)'")
        .isTrue();
    return m.group(1);
  }

  private static String exampleSource() throws Exception {
    return Files.readString(repoRoot().resolve("adapters-icechunk/src/test/java/io/floe/adapters/"
        + "icechunk/port/ReadmeTransactionExample.java"));
  }

  private static Path repoRoot() {
    Path here = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    return Files.exists(here.resolve("adapters-icechunk")) ? here : here.getParent();
  }

  private static String normalized(String code) {
    return code.replaceAll("(?m)^\\s*// README (begin|end)\\s*$", "").replaceAll("\\s+", " ")
        .strip();
  }
}
