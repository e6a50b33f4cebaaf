package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.service.maintenance.MaintenanceScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance scheduler on a real server: a policy and the commits clients make are all it
 * takes for tables to be compacted and expired, nobody calling maintain. Two schedulers on one
 * database (two replicas) never run the same job; a job whose replica died is taken over once
 * its lease expired; a failing job backs off; appends racing a scheduled compaction lose no row.
 * The server's own scheduler ticks once a day here: the tests tick theirs on a moved clock.
 */
class MaintenanceSchedulerTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required(2, "part", Types.IntegerType.get()),
      Types.NestedField.optional(3, "name", Types.StringType.get()));
  /** Partitioned as TableMaintenanceTest's appends write: one file per append of one row. */
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("part").build();
  private static final Namespace NS = Namespace.of("kept");
  private static final long EIGHT_MIB = 8L * 1024 * 1024;

  @TempDir
  static Path directory;
  private static TestFloe floe;

  private TestFloe.Org org;
  private RESTCatalog catalog;
  private ManagementApi api;
  private final List<MaintenanceScheduler> schedulers = new ArrayList<>();

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory);
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
    catalog = floe.catalog(org, Map.of());
    catalog.createNamespace(NS);
    api = new ManagementApi(floe.port(), org.token());
  }

  @AfterEach
  void close() throws IOException {
    schedulers.forEach(MaintenanceScheduler::close);
    catalog.close();
  }

  private MaintenanceScheduler replica(String name, int concurrency) {
    MaintenanceScheduler scheduler = floe.maintenanceScheduler(name, concurrency);
    schedulers.add(scheduler);
    return scheduler;
  }

  private void namespacePolicy(Map<String, Object> policy) {
    ManagementApi.Reply set = api.put("/orgs/" + org.warehouse()
        + "/iceberg/namespaces/kept/maintenance-policy", policy);
    assertThat(set.status()).as("%s", set.body()).isEqualTo(200);
  }

  private Table tableWithAppends(String name, int appends) {
    Table table = catalog.createTable(TableIdentifier.of(NS, name), SCHEMA, SPEC,
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    for (long i = 0; i < appends; i++) {
      TableMaintenanceTest.append(table, List.of(i));
    }
    table.refresh();
    return table;
  }

  private JsonNode jobs(String table) {
    ManagementApi.Reply listed = api.get("/orgs/" + org.warehouse()
        + "/iceberg/namespaces/kept/tables/" + table + "/maintenance/jobs");
    assertThat(listed.status()).as("%s", listed.body()).isEqualTo(200);
    return listed.body().path("jobs");
  }

  @Test
  void aPolicyOnTheNamespaceCompactsAndExpiresWithoutAnyoneCallingMaintain() throws Exception {
    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB,
        "snapshot_max_age_seconds", 0, "min_snapshots_to_keep", 3));
    Table table = catalog.createTable(TableIdentifier.of(NS, "events"), SCHEMA, SPEC);
    long tagged = 0;
    for (long i = 0; i < 12; i++) {
      TableMaintenanceTest.append(table, List.of(i));
      if (i == 4) {
        tagged = table.currentSnapshot().snapshotId();
        table.manageSnapshots().createTag("first-five", tagged).commit();
      }
    }
    table.refresh();
    List<Long> before = ids(table);
    assertThat(dataFiles(table)).isEqualTo(12);
    assertThat(jobs("events")).isEmpty();

    MaintenanceScheduler scheduler = replica("replica-a", 1);
    MaintenanceScheduler.Tick tick = scheduler.tick();
    assertThat(tick.eventsRead()).as("12 appends and the tag").isGreaterThanOrEqualTo(13);
    assertThat(tick.jobsPlanned()).isEqualTo(1);
    assertThat(tick.jobsRun()).hasSize(1);

    table.refresh();
    assertThat(dataFiles(table)).as("12 one-row files compacted by partition")
        .isEqualTo(4);
    assertThat(table.snapshots()).as("the last three of main and the tag's")
        .hasSizeLessThanOrEqualTo(4);
    assertThat(table.snapshot(tagged)).isNotNull();
    assertThat(ids(table)).containsExactlyInAnyOrderElementsOf(before);

    JsonNode job = jobs("events").get(0);
    assertThat(job.path("state").asText()).isEqualTo("succeeded");
    assertThat(job.path("steps").toString()).contains("compact", "expire_snapshots");
    assertThat(job.path("reason").asText()).contains("12 data files");
    assertThat(job.path("outcome").asText()).contains("compaction done (12 files into 4)");
    assertThat(job.path("attempts").asInt()).isEqualTo(1);
    assertThat(job.path("replica").asText()).isEqualTo("replica-a");

    JsonNode audit = api.get("/orgs/" + org.warehouse() + "/audit?action=table.maintain").body();
    assertThat(audit.path("entries")).hasSize(1);
    assertThat(audit.at("/entries/0/principal_name").asText())
        .isEqualTo("floe-maintenance-scheduler");
    assertThat(metrics()).contains("floe_maintenance_jobs_total{state=\"succeeded\"}");

    String listed = cli("tables", "maintenance-jobs", "kept.events");
    assertThat(listed).contains("succeeded", "compact,expire_snapshots", "12 data files",
        "compaction done (12 files into 4)");
    assertThat(cli("tables", "maintenance-jobs", "kept.events", "-o", "json"))
        .contains("\"jobs\"", "\"succeeded\"");

    MaintenanceScheduler.Tick again = scheduler.tick();
    assertThat(again.jobsPlanned()).as("its own commits plan no more maintenance").isZero();
    assertThat(again.jobsRun()).isEmpty();
    assertThat(jobs("events")).hasSize(1);
  }

  @Test
  void noJobIsPlannedWithoutAPolicyOrWhenTheTableIsHealthy() {
    tableWithAppends("unruled", 6);
    MaintenanceScheduler scheduler = replica("replica-a", 1);
    assertThat(scheduler.tick().jobsRun()).isEmpty();
    assertThat(jobs("unruled")).isEmpty();

    String jobs = "/orgs/" + org.warehouse() + "/iceberg/namespaces/kept/tables/";
    assertThat(api.get(jobs + "unruled/maintenance/jobs?limit=0").status()).isEqualTo(422);
    assertThat(api.get(jobs + "unruled/maintenance/jobs?limit=501").status()).isEqualTo(422);
    assertThat(api.get(jobs + "unruled/maintenance/jobs?limit=x").status()).isEqualTo(422);
    assertThat(api.get(jobs + "missing/maintenance/jobs").status()).isEqualTo(404);
    assertThat(new ManagementApi(floe.port(), "ema_" + "0".repeat(40))
        .get(jobs + "unruled/maintenance/jobs").status()).isEqualTo(401);

    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB,
        "compaction_min_input_files", 10));
    Table few = tableWithAppends("few", 3);
    MaintenanceScheduler.Tick tick = scheduler.tick();
    assertThat(tick.jobsRun()).as("3 files, fewer than the policy's 10").isEmpty();
    assertThat(jobs("few")).isEmpty();
    assertThat(dataFiles(few)).isEqualTo(3);
  }

  @Test
  void thePolicyIsReadAgainWhenTheJobRunsAndAJobItNoLongerWantsIsSkipped() {
    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB));
    Table table = tableWithAppends("unwanted", 8);
    MaintenanceScheduler scheduler = replica("replica-a", 1);
    scheduler.readFeeds();
    assertThat(scheduler.plan()).isEqualTo(1);
    assertThat(api.delete("/orgs/" + org.warehouse()
        + "/iceberg/namespaces/kept/maintenance-policy").status()).isEqualTo(204);

    assertThat(scheduler.runDue()).hasSize(1);
    JsonNode job = jobs("unwanted").get(0);
    assertThat(job.path("state").asText()).isEqualTo("skipped");
    assertThat(job.path("outcome").asText()).contains("no longer turns on [compact]");
    table.refresh();
    assertThat(dataFiles(table)).isEqualTo(8);
    assertThat(api.get("/orgs/" + org.warehouse() + "/audit?action=table.maintain").body()
        .path("entries")).isEmpty();
  }

  @Test
  void twoReplicasNeverRunTheSameJob() throws Exception {
    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB));
    int tables = 4;
    for (int t = 0; t < tables; t++) {
      tableWithAppends("t" + t, 5);
    }
    MaintenanceScheduler first = replica("replica-a", 2);
    MaintenanceScheduler second = replica("replica-b", 2);
    ExecutorService replicas = Executors.newFixedThreadPool(2);
    List<MaintenanceJob> ran = new ArrayList<>();
    try {
      for (int round = 0; round < 4; round++) {
        CountDownLatch together = new CountDownLatch(1);
        Future<MaintenanceScheduler.Tick> a = replicas.submit(() -> {
          together.await();
          return first.tick();
        });
        Future<MaintenanceScheduler.Tick> b = replicas.submit(() -> {
          together.await();
          return second.tick();
        });
        together.countDown();
        ran.addAll(a.get().jobsRun());
        ran.addAll(b.get().jobsRun());
      }
    } finally {
      replicas.shutdownNow();
    }
    assertThat(ran).extracting(MaintenanceJob::id).doesNotHaveDuplicates().hasSize(tables);
    for (int t = 0; t < tables; t++) {
      JsonNode jobs = jobs("t" + t);
      assertThat(jobs).as("t%d", t).hasSize(1);
      assertThat(jobs.get(0).path("state").asText()).isEqualTo("succeeded");
      assertThat(jobs.get(0).path("attempts").asInt()).as("run once").isEqualTo(1);
      assertThat(dataFiles(catalog.loadTable(TableIdentifier.of(NS, "t" + t)))).isEqualTo(4);
    }
    JsonNode audit = api.get("/orgs/" + org.warehouse() + "/audit?action=table.maintain").body();
    assertThat(audit.path("entries")).hasSize(tables);
  }

  @Test
  void aJobWhoseReplicaDiedIsTakenOverOnceItsLeaseExpiredAndNothingIsLost() {
    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB));
    Table table = tableWithAppends("orphaned", 8);
    List<Long> before = ids(table);
    MaintenanceScheduler survivor = replica("survivor", 1);
    survivor.readFeeds();
    assertThat(survivor.plan()).isEqualTo(1);
    // Another replica claims the job and dies: its lease is never renewed.
    MaintenanceJob claimed = floe.maintenanceJobs().claim("died", floe.clock().instant(),
        MaintenanceScheduler.LEASE).orElseThrow();
    assertThat(jobs("orphaned").get(0).path("replica").asText()).isEqualTo("died");

    assertThat(survivor.runDue()).as("the lease still runs").isEmpty();
    floe.clock().advance(MaintenanceScheduler.LEASE.minusSeconds(1));
    assertThat(survivor.runDue()).isEmpty();
    floe.clock().advance(Duration.ofSeconds(2));
    assertThat(survivor.runDue()).extracting(MaintenanceJob::id).containsExactly(claimed.id());

    JsonNode job = jobs("orphaned").get(0);
    assertThat(job.path("state").asText()).isEqualTo("succeeded");
    assertThat(job.path("attempts").asInt()).isEqualTo(2);
    assertThat(job.path("replica").asText()).isEqualTo("survivor");
    table.refresh();
    assertThat(ids(table)).containsExactlyInAnyOrderElementsOf(before);
    assertThat(dataFiles(table)).isEqualTo(4);
    assertThat(floe.maintenanceJobs().finish(claimed.id(), "died",
        MaintenanceJob.State.SUCCEEDED, "late", io.floe.application.model.MaintenanceTable
            .Observed.NOTHING, floe.clock().instant())).as("the dead replica lost it").isFalse();
  }

  @Test
  void aFailingJobBacksOffExponentiallyWithItsReasonShown() throws Exception {
    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB));
    // Two files in each of the four partitions: each partition is compacted, so every file read.
    Table table = tableWithAppends("broken", 8);
    List<Long> before = ids(table);
    Path file = Path.of(URI.create(firstDataFile(table).location()));
    Path aside = directory.resolve("aside-" + file.getFileName());
    Files.move(file, aside);
    MaintenanceScheduler scheduler = replica("replica-a", 1);

    Instant firstTry = floe.clock().instant();
    assertThat(scheduler.tick().jobsRun()).hasSize(1);
    Instant firstEnded = floe.clock().instant();
    JsonNode job = jobs("broken").get(0);
    assertThat(job.path("state").asText()).isEqualTo("pending");
    assertThat(job.path("attempts").asInt()).isEqualTo(1);
    assertThat(job.path("last_error").asText()).isNotEmpty();
    assertThat(Instant.parse(job.path("due_at").asText()))
        .isBetween(firstTry.plus(MaintenanceScheduler.FIRST_BACKOFF),
            firstEnded.plus(MaintenanceScheduler.FIRST_BACKOFF));

    assertThat(scheduler.tick().jobsRun()).as("backing off").isEmpty();
    floe.clock().advance(MaintenanceScheduler.FIRST_BACKOFF);
    Instant secondTry = floe.clock().instant();
    assertThat(scheduler.tick().jobsRun()).hasSize(1);
    Instant secondEnded = floe.clock().instant();
    job = jobs("broken").get(0);
    assertThat(job.path("attempts").asInt()).isEqualTo(2);
    Duration twice = MaintenanceScheduler.FIRST_BACKOFF.multipliedBy(2);
    assertThat(Instant.parse(job.path("due_at").asText())).as("twice as long")
        .isBetween(secondTry.plus(twice), secondEnded.plus(twice));
    assertThat(metrics()).contains("floe_maintenance_jobs_total{state=\"pending\"}");

    Files.move(aside, file);
    floe.clock().advance(MaintenanceScheduler.FIRST_BACKOFF);
    assertThat(scheduler.tick().jobsRun()).as("not due yet").isEmpty();
    floe.clock().advance(MaintenanceScheduler.FIRST_BACKOFF);
    assertThat(scheduler.tick().jobsRun()).hasSize(1);
    job = jobs("broken").get(0);
    assertThat(job.path("state").asText()).isEqualTo("succeeded");
    assertThat(job.path("attempts").asInt()).isEqualTo(3);
    table.refresh();
    assertThat(ids(table)).containsExactlyInAnyOrderElementsOf(before);
    assertThat(MaintenanceScheduler.backoff(30)).isEqualTo(MaintenanceScheduler.MAX_BACKOFF);
  }

  @Test
  void appendsRacingScheduledCompactionAndExpiryLoseNoRowAndFailNone() throws Exception {
    namespacePolicy(Map.of("compaction_target_file_size_bytes", EIGHT_MIB,
        "snapshot_max_age_seconds", 0, "min_snapshots_to_keep", 3));
    TableIdentifier id = TableIdentifier.of(NS, "racing");
    catalog.createTable(id, SCHEMA, SPEC, Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    int writers = 8;
    int appendsEach = 8;
    ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    MaintenanceScheduler scheduler = replica("replica-a", 1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<MaintenanceJob> ran = new ArrayList<>();
    try {
      List<Future<?>> appends = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        long first = w * 1000L;
        appends.add(pool.submit(() -> {
          try (RESTCatalog own = floe.catalog(org, Map.of())) {
            Table table = own.loadTable(id);
            for (long i = first; i < first + appendsEach; i++) {
              table.refresh();
              TableMaintenanceTest.append(table, List.of(i));
              acknowledged.add(i);
            }
          }
          return null;
        }));
      }
      while (appends.stream().anyMatch(append -> !append.isDone())) {
        ran.addAll(scheduler.tick().jobsRun());
      }
      for (Future<?> append : appends) {
        append.get(); // an append that failed fails the test here
      }
      writing.set(false);
    } finally {
      pool.shutdownNow();
    }
    ran.addAll(scheduler.tick().jobsRun());
    ran.addAll(scheduler.tick().jobsRun());
    assertThat(ran).as("the scheduler ran while clients appended").isNotEmpty();
    JsonNode jobs = jobs("racing");
    Set<String> states = new HashSet<>();
    jobs.forEach(job -> states.add(job.path("state").asText()));
    assertThat(states).containsOnly("succeeded");

    Table table = catalog.loadTable(id);
    List<Long> ids = ids(table);
    assertThat(ids).hasSize(writers * appendsEach)
        .containsExactlyInAnyOrderElementsOf(acknowledged);
    assertThat(dataFiles(table)).isLessThanOrEqualTo(4);
  }

  private static DataFile firstDataFile(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      return tasks.iterator().next().file();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int dataFiles(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      int count = 0;
      for (FileScanTask ignored : tasks) {
        count++;
      }
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Long> ids(Table table) {
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      List<Long> ids = new ArrayList<>();
      records.forEach(record -> ids.add((Long) record.getField("id")));
      return ids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the {@code floe} command line against the server as the org's admin; its output. */
  private String cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.port(), "--token", org.token(),
        "--org", org.warehouse()));
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    picocli.CommandLine command = FloeCommand.commandLine();
    command.setOut(new java.io.PrintWriter(out, true));
    command.setErr(new java.io.PrintWriter(err, true));
    assertThat(command.execute(all.toArray(String[]::new))).as("%s", err).isZero();
    return out.toString();
  }

  private String metrics() throws Exception {
    HttpResponse<String> scraped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + floe.port() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(scraped.statusCode()).isEqualTo(200);
    return scraped.body();
  }
}
