package io.floe.adapters.storage.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.adapters.storage.spark.job.TableBoundFileIO;
import io.floe.application.port.out.DistributedMaintenance;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs maintenance jobs with {@code spark-submit}: one application per job, whose driver is the
 * PySpark script shipped with this class ({@code floe_maintenance.py}). The script opens Floe as
 * an Iceberg REST catalog with the job's token and calls Iceberg's own procedures
 * ({@code rewrite_data_files}, {@code expire_snapshots}, {@code rewrite_manifests},
 * {@code remove_orphan_files}) on the job's table, so every commit goes through the catalog's
 * commit route. The token reaches the driver in its environment, never on a command line. The
 * process is waited for up to the timeout and then ended with everything it started; its output's
 * tail is the failure's reason, and its last line of results is the job's outcome.
 *
 * <p>The job works inside its table's boundary: it reaches storage only through
 * {@link TableBoundFileIO} (shipped to it in a jar of its own), with the credentials the catalog
 * vends for the table's prefix, and the server's own keys never reach its environment. The driver
 * first checks every file the table's metadata names lies beneath the table's location and
 * refuses the job otherwise ({@value #REFUSED_MARKER}): Iceberg's procedures log and skip a file
 * they fail to delete, so the refusal would otherwise go unreported.
 */
public final class SparkSubmitMaintenance implements DistributedMaintenance {
  /** The environment variable the driver reads the job's token from. */
  static final String TOKEN_VARIABLE = "FLOE_MAINTENANCE_TOKEN";
  /** The line the driver prints its results on, as JSON after this marker. */
  static final String RESULT_MARKER = "FLOE_MAINTENANCE_RESULT ";
  /** The line the driver prints when it refuses the job: the reason follows the marker. */
  static final String REFUSED_MARKER = "FLOE_MAINTENANCE_REFUSED ";
  static final String SCRIPT = "floe_maintenance.py";
  /** The jar of the job's FileIO, written beside the script. */
  static final String FILE_IO_JAR = "floe-maintenance-io.jar";
  /** The classes of that jar: the FileIO and its nested classes. */
  static final List<Class<?>> FILE_IO_CLASSES = List.of(TableBoundFileIO.class,
      nested("Input"), nested("Output"));
  /**
   * Environment variables through which an SDK would find credentials of the server's own: the
   * job must hold none but what the catalog vends for its table.
   */
  static final List<String> AMBIENT_CREDENTIALS = List.of("AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_PROFILE",
      "AWS_DEFAULT_PROFILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE",
      "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
      "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN",
      "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CLIENT_SECRET", "AZURE_CLIENT_ID",
      "AZURE_TENANT_ID");
  /**
   * The AWS SDK computes checksums only where S3 requires them: a body then streams with a
   * chunk-signed or plain signature, which Floe's S3 endpoint for local buckets takes, never
   * with a signed checksum trailer, which it does not.
   */
  static final Map<String, String> SDK_SETTINGS = Map.of(
      "AWS_REQUEST_CHECKSUM_CALCULATION", "WHEN_REQUIRED",
      "AWS_RESPONSE_CHECKSUM_VALIDATION", "WHEN_REQUIRED");
  private static final int TAIL_LINES = 40;
  private static final int TAIL_CHARS = 1800;
  private static final Logger LOG = LoggerFactory.getLogger(SparkSubmitMaintenance.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  /**
   * How jobs are submitted: the {@code spark-submit} to run, the master URL, the catalog URI the
   * job reaches Floe at, Spark configuration pairs ({@code key=value}) and packages or jars to add
   * (Iceberg's Spark runtime among them), and how long a job may run.
   */
  public record Settings(Path sparkSubmit, String master, URI catalogUri, List<String> conf,
      Optional<String> packages, Optional<String> jars, Duration timeout) {
    public Settings {
      Objects.requireNonNull(sparkSubmit, "sparkSubmit");
      Objects.requireNonNull(master, "master");
      Objects.requireNonNull(catalogUri, "catalogUri");
      conf = List.copyOf(conf);
      Objects.requireNonNull(packages, "packages");
      Objects.requireNonNull(jars, "jars");
      Objects.requireNonNull(timeout, "timeout");
      if (master.isBlank()) {
        throw new IllegalArgumentException("--spark-master must name a master URL");
      }
      for (String pair : conf) {
        if (pair.indexOf('=') < 1) {
          throw new IllegalArgumentException("--spark-conf takes KEY=VALUE, not " + pair);
        }
      }
      if (timeout.compareTo(Duration.ofSeconds(10)) < 0) {
        throw new IllegalArgumentException("--spark-job-timeout must be at least 10s");
      }
    }

    /** The value of one {@code --spark-conf} key, if set. */
    Optional<String> confValue(String key) {
      return conf.stream().filter(pair -> pair.startsWith(key + "="))
          .map(pair -> pair.substring(key.length() + 1)).reduce((first, last) -> last);
    }
  }

  private final Settings settings;
  private final Path script;
  private final Path fileIoJar;

  /** Writes the driver script into {@code workDir}, where every job then runs it from. */
  public SparkSubmitMaintenance(Settings settings, Path workDir) {
    this.settings = settings;
    try {
      Files.createDirectories(workDir);
      this.script = workDir.resolve(SCRIPT);
      try (InputStream in = SparkSubmitMaintenance.class.getResourceAsStream(SCRIPT)) {
        if (in == null) {
          throw new IllegalStateException(SCRIPT + " is missing from the server's jar");
        }
        Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
      }
      this.fileIoJar = workDir.resolve(FILE_IO_JAR);
      writeFileIoJar(fileIoJar);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the Spark maintenance driver to "
          + workDir, e);
    }
  }

  /** The command line of a job, the token aside (it goes to the environment). */
  List<String> command(Job job) {
    List<String> command = new ArrayList<>(List.of(settings.sparkSubmit().toString(),
        "--master", settings.master(), "--name", "floe-maintenance-" + job.id()));
    settings.packages().ifPresent(packages -> command.addAll(List.of("--packages", packages)));
    command.addAll(List.of("--jars", settings.jars().map(jars -> fileIoJar + "," + jars)
        .orElse(fileIoJar.toString())));
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.sql.extensions",
        "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
    conf.put("spark.sql.catalog.floe", "org.apache.iceberg.spark.SparkCatalog");
    conf.put("spark.sql.catalog.floe.type", "rest");
    conf.put("spark.sql.catalog.floe.uri", settings.catalogUri().toString());
    conf.put("spark.sql.catalog.floe.warehouse", job.warehouse());
    conf.put("spark.sql.session.timeZone", "UTC");
    conf.put("spark.ui.enabled", "false");
    for (String pair : settings.conf()) {
      int eq = pair.indexOf('=');
      conf.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    // The table's boundary, after the operator's configuration so nothing there replaces it.
    conf.put("spark.sql.catalog.floe.io-impl", TableBoundFileIO.class.getName());
    conf.put("spark.sql.catalog.floe.header.X-Iceberg-Access-Delegation", "vended-credentials");
    conf.put("spark.sql.catalog.floe." + TableBoundFileIO.ENDPOINT, origin(settings.catalogUri()));
    SDK_SETTINGS.forEach((name, value) -> conf.put("spark.executorEnv." + name, value));
    conf.forEach((key, value) -> command.addAll(List.of("--conf", key + "=" + value)));
    command.add(script.toString());
    command.add(arguments(job));
    return command;
  }

  /** The job as the driver reads it: JSON, without the token. */
  static String arguments(Job job) {
    ObjectNode json = JSON.createObjectNode();
    json.put("id", job.id());
    json.put("namespace", job.namespace());
    json.put("table", job.table());
    json.put("dry_run", job.dryRun());
    job.compact().ifPresent(c -> json.putObject("compact")
        .put("target_file_size_bytes", c.targetFileSizeBytes())
        .put("min_input_files", c.minInputFiles()));
    job.expire().ifPresent(e -> json.putObject("expire_snapshots")
        .put("older_than", TIMESTAMP.format(e.olderThan()))
        .put("retain_last", e.retainLast()));
    if (job.rewriteManifests()) {
      json.put("rewrite_manifests", true);
    }
    job.orphansOlderThan().ifPresent(at -> json.putObject("remove_orphans")
        .put("older_than", TIMESTAMP.format(at)));
    return json.toString();
  }

  @Override
  public Outcome run(Job job) {
    ProcessBuilder builder = new ProcessBuilder(command(job)).redirectErrorStream(true);
    environment(builder.environment(), job);
    // The driver's Python, when the configuration names one, also for spark-submit's own scripts.
    settings.confValue("spark.pyspark.python").ifPresent(python -> {
      builder.environment().put("PYSPARK_PYTHON", python);
      builder.environment().put("PYSPARK_DRIVER_PYTHON", python);
    });
    Instant started = Instant.now();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new Failed("could not start " + settings.sparkSubmit() + ": " + e.getMessage());
    }
    Deque<String> tail = new ArrayDeque<>();
    AtomicReference<String> result = new AtomicReference<>();
    AtomicReference<String> refusal = new AtomicReference<>();
    Thread reader = new Thread(() -> read(process, job, tail, result, refusal),
        "floe-spark-job-" + job.id());
    reader.setDaemon(true);
    reader.start();
    try {
      if (!process.waitFor(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        end(process);
        reader.join(5_000);
        throw new Failed("the Spark job ran out of time (" + settings.timeout() + "): "
            + tail(tail));
      }
      reader.join(30_000);
    } catch (InterruptedException e) {
      end(process);
      Thread.currentThread().interrupt();
      throw new Failed("the Spark job was stopped with the server: " + tail(tail));
    }
    int code = process.exitValue();
    if (refusal.get() != null) {
      throw new Failed("the Spark job refused the table: " + refusal.get());
    }
    if (code != 0 || result.get() == null) {
      throw new Failed("spark-submit exited with " + code
          + (code == 0 ? " without reporting a result" : "") + ": " + tail(tail));
    }
    LOG.info("Spark maintenance job {} of {}.{} ended in {}", job.id(), job.namespace(),
        job.table(), Duration.between(started, Instant.now()));
    return outcome(result.get());
  }

  private static void read(Process process, Job job, Deque<String> tail,
      AtomicReference<String> result, AtomicReference<String> refusal) {
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        LOG.debug("spark job {}: {}", job.id(), line);
        if (line.startsWith(RESULT_MARKER)) {
          result.set(line.substring(RESULT_MARKER.length()));
        } else if (line.startsWith(REFUSED_MARKER)) {
          refusal.compareAndSet(null, line.substring(REFUSED_MARKER.length()));
        }
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      LOG.debug("spark job {}: its output ended: {}", job.id(), e.getMessage());
    }
  }

  /** The output's last lines, at most {@link #TAIL_CHARS} characters of them. */
  static String tail(Deque<String> tail) {
    String text;
    synchronized (tail) {
      text = String.join("\n", tail);
    }
    return text.length() > TAIL_CHARS ? "..." + text.substring(text.length() - TAIL_CHARS)
        : text;
  }

  /**
   * The job's environment, from the server's: without any credentials an SDK would find there,
   * with the job's token.
   */
  static void environment(Map<String, String> environment, Job job) {
    AMBIENT_CREDENTIALS.forEach(environment::remove);
    environment.putAll(SDK_SETTINGS);
    environment.put(TOKEN_VARIABLE, job.token());
  }

  /** Scheme, host and port of {@code uri}: where Floe's S3 endpoint answers too. */
  static String origin(URI uri) {
    return uri.getScheme() + "://" + uri.getRawAuthority();
  }

  /** Writes the jar of the job's FileIO from this server's own class files. */
  static void writeFileIoJar(Path jar) throws IOException {
    Path partial = jar.resolveSibling(jar.getFileName() + ".partial");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(partial))) {
      for (Class<?> type : FILE_IO_CLASSES) {
        String entry = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(entry)) {
          if (in == null) {
            throw new IllegalStateException(entry + " is missing from the server's jar");
          }
          out.putNextEntry(new JarEntry(entry));
          in.transferTo(out);
          out.closeEntry();
        }
      }
    }
    Files.move(partial, jar, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  private static Class<?> nested(String name) {
    try {
      return Class.forName(TableBoundFileIO.class.getName() + "$" + name, false,
          TableBoundFileIO.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Ends the process and every process it started (the driver's Python, a local Spark). */
  private static void end(Process process) {
    List<ProcessHandle> started = process.descendants().toList();
    started.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
      for (ProcessHandle child : started) {
        child.onExit().get(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      LOG.warn("a process of a Spark job did not end in time: {}", e.toString());
    }
  }

  static Outcome outcome(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      return new Outcome(node.path("outcome").asText(""),
          node.hasNonNull("snapshots") ? Optional.of(node.get("snapshots").asInt())
              : Optional.empty(),
          node.hasNonNull("data_manifests") ? Optional.of(node.get("data_manifests").asInt())
              : Optional.empty());
    } catch (IOException e) {
      throw new Failed("the Spark job's result could not be read: " + json);
    }
  }
}
