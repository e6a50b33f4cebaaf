import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Appends through Iceberg's own Java client, as an engine commits them: each append writes a real
 * manifest and manifest list through the table's FileIO and commits a new snapshot; a lost race
 * is retried by the client (the table's commit.retry.* properties). N writers, each with its own
 * client, append to one table for a fixed time. Prints, or writes to the file named by
 * WRK_REPORT, one JSON object in the shape of bench/wrk/common.lua's reports, with every append
 * one request: its latency is the whole commit() call, retries included; a commit() that throws
 * is an error. Run with Java's source launcher on the reference server's classpath.
 *
 * <p>Each writer first appends untimed for WARM_UP_SECONDS, so that what is measured is the
 * steady state of client and server, not the first commits of a cold JVM.
 *
 * <p>Usage: AppendBench URI NAMESPACE TABLE WRITERS SECONDS [WARM_UP_SECONDS]
 * [key=value catalog properties...]
 */
public final class AppendBench {
  public static void main(String[] args) throws Exception {
    String uri = args[0];
    TableIdentifier identifier = TableIdentifier.of(args[1], args[2]);
    int writers = Integer.parseInt(args[3]);
    long seconds = Long.parseLong(args[4]);
    boolean warmUpGiven = args.length > 5 && args[5].matches("[0-9]+");
    long warmUpSeconds = warmUpGiven ? Long.parseLong(args[5]) : 0;
    Map<String, String> properties = new HashMap<>();
    properties.put("uri", uri);
    for (int i = warmUpGiven ? 6 : 5; i < args.length; i++) {
      int equals = args[i].indexOf('=');
      properties.put(args[i].substring(0, equals), args[i].substring(equals + 1));
    }
    List<RESTCatalog> catalogs = new ArrayList<>();
    List<Table> tables = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      RESTCatalog catalog = new RESTCatalog();
      catalog.initialize("bench-" + w, properties);
      catalogs.add(catalog);
      tables.add(catalog.loadTable(identifier));
    }
    List<List<Long>> latencies = new ArrayList<>();
    AtomicLong errors = new AtomicLong();
    ExecutorService threads = Executors.newFixedThreadPool(writers);
    long warmUpEnd = System.nanoTime() + warmUpSeconds * 1_000_000_000L;
    List<Future<?>> warming = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Table table = tables.get(w);
      int writer = w;
      warming.add(threads.submit(() -> {
        long n = 0;
        while (System.nanoTime() < warmUpEnd) {
          append(table, "warm-" + writer + "-" + (n++));
        }
        return null;
      }));
    }
    for (Future<?> writer : warming) {
      writer.get();
    }
    long start = System.nanoTime();
    long deadline = start + seconds * 1_000_000_000L;
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Table table = tables.get(w);
      List<Long> mine = new ArrayList<>();
      latencies.add(mine);
      int writer = w;
      running.add(threads.submit(() -> {
        long n = 0;
        while (System.nanoTime() < deadline) {
          long began = System.nanoTime();
          try {
            append(table, "w" + writer + "-" + (n++));
            mine.add((System.nanoTime() - began) / 1000);
          } catch (RuntimeException e) {
            if (errors.incrementAndGet() <= 3) {
              System.err.println("append failed: " + e);
            }
            table.refresh();
          }
        }
        return null;
      }));
    }
    for (Future<?> writer : running) {
      writer.get();
    }
    long durationUs = (System.nanoTime() - start) / 1000;
    threads.shutdown();
    for (RESTCatalog catalog : catalogs) {
      catalog.close();
    }
    List<Long> all = new ArrayList<>();
    latencies.forEach(all::addAll);
    Collections.sort(all);
    long ok = all.size();
    double mean = all.stream().mapToLong(Long::longValue).average().orElse(0);
    String json = String.format(Locale.ROOT,
        "{\"threads\": %d, \"requests\": %d, \"duration_us\": %d, \"bytes\": 0, "
            + "\"errors\": {\"connect\": 0, \"read\": 0, \"write\": 0, \"status\": %d, "
            + "\"timeout\": 0}, \"latency_us\": {\"mean\": %.1f, \"p50\": %d, \"p90\": %d, "
            + "\"p99\": %d, \"max\": %d}, \"statuses\": {%s}}",
        writers, ok + errors.get(), durationUs, errors.get(), mean, percentile(all, 50),
        percentile(all, 90), percentile(all, 99), all.isEmpty() ? 0 : all.get(all.size() - 1),
        ok > 0 ? "\"200\": " + ok : "");
    String report = System.getenv("WRK_REPORT");
    if (report != null) {
      Files.writeString(Path.of(report), json + "\n", StandardCharsets.UTF_8);
    } else {
      System.out.println(json);
    }
  }

  /** One data file appended in a commit of its own (the file itself is never read). */
  private static void append(Table table, String name) {
    DataFile file = DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name + "-" + UUID.randomUUID() + ".parquet")
        .withFileSizeInBytes(81920).withRecordCount(1000).build();
    table.newFastAppend().appendFile(file).commit();
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
