package io.floe.adapters.storage.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.DistributedMaintenance;
import io.floe.application.port.out.DistributedMaintenance.Failed;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the adapter runs and tracks a spark-submit, with a shell script in its place that behaves
 * as told (the real Spark runs in the Python suite, test_spark_maintenance.py): the command line
 * carries the catalog and the job but never the token, which the environment does; a result
 * line is the outcome; a failure's reason is the output's tail; a job that outlives the timeout
 * is ended together with what it started.
 */
class SparkSubmitMaintenanceTest {
  private static final String TOKEN = "fmj_secret-token";

  @TempDir
  Path dir;

  private static DistributedMaintenance.Job job() {
    return new DistributedMaintenance.Job(7, "my-org", "sales", "orders", TOKEN,
        Optional.of(new DistributedMaintenance.Compaction(8L << 20, 2)),
        Optional.of(new DistributedMaintenance.Expiry(Instant.parse("2026-01-02T03:04:05Z"), 5)),
        false, Optional.empty(), false);
  }

  /** A spark-submit that runs {@code body} (sh) with the job's arguments. */
  private SparkSubmitMaintenance submitting(String body, Duration timeout) throws IOException {
    Path script = dir.resolve("spark-submit");
    Files.writeString(script, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return new SparkSubmitMaintenance(new SparkSubmitMaintenance.Settings(script, "local[2]",
        URI.create("http://127.0.0.1:8181/iceberg"), List.of("spark.executor.memory=1g"),
        Optional.empty(), Optional.of("/jars/iceberg-spark-runtime.jar"), timeout),
        dir.resolve("work"));
  }

  @Test
  void theCommandNamesTheCatalogAndTheJobAndTheTokenGoesOnlyToTheEnvironment() throws Exception {
    Path seen = dir.resolve("seen");
    SparkSubmitMaintenance spark = submitting("echo \"$@\" > " + seen + "\n"
        + "echo \"token=$FLOE_MAINTENANCE_TOKEN\" >> " + seen + "\n"
        + "echo 'FLOE_MAINTENANCE_RESULT {\"outcome\": \"spark: compaction done (200 files into "
        + "1)\", \"snapshots\": 6, \"data_manifests\": 1}'", Duration.ofMinutes(1));

    DistributedMaintenance.Outcome outcome = spark.run(job());

    assertThat(outcome).isEqualTo(new DistributedMaintenance.Outcome(
        "spark: compaction done (200 files into 1)", Optional.of(6), Optional.of(1)));
    List<String> lines = Files.readAllLines(seen);
    assertThat(lines.get(0)).contains("--master local[2]",
        "--jars " + dir.resolve("work").resolve(SparkSubmitMaintenance.FILE_IO_JAR)
            + ",/jars/iceberg-spark-runtime.jar",
        "--conf spark.sql.catalog.floe.uri=http://127.0.0.1:8181/iceberg",
        "--conf spark.sql.catalog.floe.warehouse=my-org", "--conf spark.executor.memory=1g",
        "floe_maintenance.py", "\"namespace\":\"sales\"", "\"table\":\"orders\"",
        "\"target_file_size_bytes\":8388608", "\"older_than\":\"2026-01-02 03:04:05.000\"",
        "\"retain_last\":5").doesNotContain(TOKEN).doesNotContain("--packages");
    assertThat(lines.get(1)).isEqualTo("token=" + TOKEN);
    assertThat(dir.resolve("work").resolve("floe_maintenance.py")).content()
        .contains("CALL {CATALOG}.system.rewrite_data_files");
  }

  @Test
  void theJobReachesStorageOnlyThroughTheTableBoundFileIoWithVendedCredentials()
      throws Exception {
    Path seen = dir.resolve("seen");
    Path script = dir.resolve("spark-submit");
    Files.writeString(script, "#!/bin/sh\necho \"$@\" > " + seen + "\n"
        + "echo 'FLOE_MAINTENANCE_RESULT {\"outcome\": \"spark: \"}'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    // An operator's configuration cannot swap the FileIO or drop the delegation header.
    SparkSubmitMaintenance spark = new SparkSubmitMaintenance(
        new SparkSubmitMaintenance.Settings(script, "local[2]",
            URI.create("http://127.0.0.1:8181/iceberg"),
            List.of("spark.sql.catalog.floe.io-impl=org.apache.iceberg.hadoop.HadoopFileIO",
                "spark.sql.catalog.floe.header.X-Iceberg-Access-Delegation=remote-signing"),
            Optional.empty(), Optional.empty(), Duration.ofMinutes(1)),
        dir.resolve("work"));

    spark.run(job());

    List<String> lines = Files.readAllLines(seen);
    assertThat(lines.get(0)).contains(
        "--jars " + dir.resolve("work").resolve(SparkSubmitMaintenance.FILE_IO_JAR) + " ",
        "--conf spark.sql.catalog.floe.io-impl="
            + "io.floe.adapters.storage.spark.job.TableBoundFileIO",
        "--conf spark.sql.catalog.floe.header.X-Iceberg-Access-Delegation=vended-credentials",
        "--conf spark.sql.catalog.floe.floe.local-bucket.endpoint=http://127.0.0.1:8181 ")
        .doesNotContain("HadoopFileIO", "remote-signing");
    // Whatever credentials the server's environment holds, the job's holds none of them.
    java.util.Map<String, String> environment = new java.util.HashMap<>(java.util.Map.of(
        "AWS_ACCESS_KEY_ID", "AKIA", "AWS_SECRET_ACCESS_KEY", "s", "AWS_PROFILE", "prod",
        "GOOGLE_APPLICATION_CREDENTIALS", "/etc/key.json", "PATH", "/usr/bin"));
    SparkSubmitMaintenance.environment(environment, job());
    assertThat(environment).isEqualTo(java.util.Map.of("PATH", "/usr/bin",
        "FLOE_MAINTENANCE_TOKEN", TOKEN, "AWS_REQUEST_CHECKSUM_CALCULATION", "WHEN_REQUIRED",
        "AWS_RESPONSE_CHECKSUM_VALIDATION", "WHEN_REQUIRED"));
    try (java.util.jar.JarFile jar = new java.util.jar.JarFile(
        dir.resolve("work").resolve(SparkSubmitMaintenance.FILE_IO_JAR).toFile())) {
      assertThat(jar.stream().map(java.util.jar.JarEntry::getName)).containsExactlyInAnyOrder(
          "io/floe/adapters/storage/spark/job/TableBoundFileIO.class",
          "io/floe/adapters/storage/spark/job/TableBoundFileIO$Input.class",
          "io/floe/adapters/storage/spark/job/TableBoundFileIO$Output.class");
    }
  }

  @Test
  void aRefusalOfTheDriverIsTheFailuresReason() throws Exception {
    SparkSubmitMaintenance spark = submitting("echo 'FLOE_MAINTENANCE_REFUSED 1 file(s) named "
        + "by the table lie outside its location: data or delete file file:///tmp/x'\n"
        + "echo 'Traceback (most recent call last): ...'\nexit 3", Duration.ofMinutes(1));

    assertThatThrownBy(() -> spark.run(job())).isInstanceOf(Failed.class)
        .hasMessage("the Spark job refused the table: 1 file(s) named by the table lie outside "
            + "its location: data or delete file file:///tmp/x");
  }

  @Test
  void aFailedJobsReasonIsItsOutputsTail() throws Exception {
    SparkSubmitMaintenance spark = submitting("i=0; while [ $i -lt 500 ]; do echo \"log line "
        + "$i\"; i=$((i+1)); done\necho 'AnalysisException: no such table' >&2\nexit 3",
        Duration.ofMinutes(1));

    assertThatThrownBy(() -> spark.run(job())).isInstanceOf(Failed.class)
        .hasMessageStartingWith("spark-submit exited with 3: ")
        .hasMessageEndingWith("AnalysisException: no such table")
        .hasMessageNotContaining("log line 10\n")
        .satisfies(failure -> assertThat(failure.getMessage()).hasSizeLessThan(2000));
  }

  @Test
  void aJobThatReportsNoResultFailed() throws Exception {
    SparkSubmitMaintenance spark = submitting("echo started", Duration.ofMinutes(1));

    assertThatThrownBy(() -> spark.run(job())).isInstanceOf(Failed.class)
        .hasMessageContaining("without reporting a result").hasMessageContaining("started");
  }

  @Test
  void aJobThatOutlivesItsTimeoutIsEndedWithWhatItStarted() throws Exception {
    Path child = dir.resolve("child.pid");
    SparkSubmitMaintenance spark = submitting("sleep 300 &\necho $! > " + child
        + "\necho waiting\nwait", Duration.ofSeconds(10));
    long start = System.nanoTime();

    assertThatThrownBy(() -> spark.run(job())).isInstanceOf(Failed.class)
        .hasMessageContaining("ran out of time").hasMessageContaining("waiting");

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    long pid = Long.parseLong(Files.readString(child).strip());
    assertThat(ended(pid)).as("the process it started").isTrue();
  }

  /** Whether a process is gone, or a zombie that only waits for its new parent to reap it. */
  private static boolean ended(long pid) throws IOException {
    Path stat = Path.of("/proc/" + pid + "/stat");
    if (!Files.exists(stat)) {
      return ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
    }
    String text;
    try {
      text = Files.readString(stat);
    } catch (java.nio.file.NoSuchFileException e) {
      return true;
    }
    return text.substring(text.lastIndexOf(')') + 2).startsWith("Z");
  }

  @Test
  void aSpark_submitThatCannotStartFailsSayingWhich() {
    SparkSubmitMaintenance spark = new SparkSubmitMaintenance(new SparkSubmitMaintenance.Settings(
        dir.resolve("missing"), "local[2]", URI.create("http://127.0.0.1:8181/iceberg"),
        List.of(), Optional.empty(), Optional.empty(), Duration.ofMinutes(1)), dir);

    assertThatThrownBy(() -> spark.run(job())).isInstanceOf(Failed.class)
        .hasMessageContaining("could not start " + dir.resolve("missing"));
  }

  @Test
  void settingsRefuseAConfigurationPairWithoutKeyAndATooShortTimeout() {
    assertThatThrownBy(() -> new SparkSubmitMaintenance.Settings(dir, "local[2]",
        URI.create("http://h/iceberg"), List.of("novalue"), Optional.empty(), Optional.empty(),
        Duration.ofMinutes(1))).hasMessageContaining("KEY=VALUE");
    assertThatThrownBy(() -> new SparkSubmitMaintenance.Settings(dir, "local[2]",
        URI.create("http://h/iceberg"), List.of(), Optional.empty(), Optional.empty(),
        Duration.ofSeconds(1))).hasMessageContaining("at least 10s");
  }
}
