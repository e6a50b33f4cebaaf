import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.adapters.storage.s3.S3BucketStorage;
import io.floe.adapters.storage.s3.S3Clients;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Floe's side of the Icechunk benchmark (not a test; run by run.sh next to this file). Prints one
 * JSON object per measurement on stdout, in milliseconds.
 *
 * <p>Usage: {@code IcechunkBench <work dir> build-nodes <prefix>} builds the 10,000-node repository;
 * {@code open <prefix> <rounds>} measures opening a snapshot of any repository (Floe- or
 * Python-built), then 1,000 node lookups; {@code commit <prefix> <rounds>} measures
 * 1,000 chunk writes, their commit, and opening the result and reading the 1,000 chunks back.
 *
 * <p>With {@code ICECHUNK_S3_ENDPOINT} (and {@code ICECHUNK_S3_BUCKET}) set, the repositories live
 * in that bucket of an S3-compatible server (static keys from {@code AWS_ACCESS_KEY_ID} and
 * {@code AWS_SECRET_ACCESS_KEY}) instead of under the work directory; {@code ICECHUNK_CHUNKS}
 * changes the number of chunks a commit round writes.
 */
public final class IcechunkBench {
  static final int GROUPS = 99;
  static final int ARRAYS_PER_GROUP = 100;
  static final int CHUNKS = Integer.parseInt(System.getenv().getOrDefault("ICECHUNK_CHUNKS",
      "1000"));
  static final int LOOKUPS = 1_000;
  /**
   * Untimed rounds before the measured ones, in the same JVM, so the medians are of compiled
   * code as in a running server (Python's Rust is compiled ahead of time); the first round of
   * all, a cold JVM, is still reported as "first".
   */
  static final int OPEN_WARM_UP_ROUNDS = 200;
  /** Each commit round writes 1,000 chunk files, so fewer of them warm the JIT enough. */
  static final int COMMIT_WARM_UP_ROUNDS = 10;
  /** float32 elements per chunk: 1 KiB, above the 512-byte inline threshold, so real chunk objects. */
  static final int CHUNK_ELEMENTS = 256;

  public static void main(String[] args) {
    String endpoint = System.getenv("ICECHUNK_S3_ENDPOINT");
    BucketStorage storage = endpoint == null ? new LocalBucketStorage(Path.of(args[0]))
        : s3(endpoint, System.getenv().getOrDefault("ICECHUNK_S3_BUCKET", "icechunk"));
    StoragePath prefix = new StoragePath(args[2]);
    switch (args[1]) {
      case "build-nodes" -> buildNodes(storage, prefix);
      case "open" -> open(storage, prefix, Integer.parseInt(args[3]));
      case "commit" -> commit(storage, prefix, Integer.parseInt(args[3]));
      default -> throw new IllegalArgumentException("unknown step " + args[1]);
    }
  }

  /** A bucket of an S3-compatible server, addressed by path, with static keys. */
  static BucketStorage s3(String endpoint, String bucketName) {
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(),
        new CatalogName("bench"), StoragePlatform.S3_COMPATIBLE, bucketName, new StoragePath(""),
        Optional.of(endpoint), Optional.of("us-east-1"), true, BucketCredentials.staticKeys(
            System.getenv().getOrDefault("AWS_ACCESS_KEY_ID", "bench"),
            System.getenv().getOrDefault("AWS_SECRET_ACCESS_KEY", "bench")), false);
    return new S3BucketStorage(S3Clients.s3(bucket), bucket);
  }

  /** Root group, 99 groups, 100 small arrays in each: 10,000 nodes in one commit. */
  static void buildNodes(BucketStorage storage, StoragePath prefix) {
    long start = System.nanoTime();
    IcechunkRepository repository =
        IcechunkRepository.create(BucketObjectStore.of(storage), prefix);
    WritableSession session = repository.writableSession("main");
    session.createGroup("/", Map.of());
    for (int g = 0; g < GROUPS; g++) {
      session.createGroup(groupPath(g), Map.of("index", g));
      for (int a = 0; a < ARRAYS_PER_GROUP; a++) {
        session.setMetadata(groupPath(g) + "/" + arrayName(a), arrayJson(10, 10));
      }
    }
    session.commit("10,000 nodes", Map.of());
    report("build_10000_nodes", millisSince(start));
  }

  /** Open the repository, a session on main, and read one node's zarr.json; cold objects each round. */
  static void open(BucketStorage storage, StoragePath prefix, int rounds) {
    List<Double> opens = new ArrayList<>();
    List<Double> lookups = new ArrayList<>();
    for (int i = -OPEN_WARM_UP_ROUNDS; i < rounds; i++) {
      if (i == 0) {
        opens.subList(1, opens.size()).clear();
        lookups.subList(1, lookups.size()).clear();
      }
      long start = System.nanoTime();
      ReadSession session = IcechunkRepository.open(BucketObjectStore.of(storage), prefix)
          .readonlySession(Ref.branch("main"));
      byte[] zarrJson = session.zarrJson(groupPath(50) + "/" + arrayName(50));
      opens.add(millisSince(start));
      if (zarrJson.length == 0) {
        throw new IllegalStateException("empty zarr.json");
      }
      start = System.nanoTime();
      int bytes = 0;
      for (int n = 0; n < LOOKUPS; n++) {
        bytes += session.zarrJson(lookupPath(n)).length;
      }
      lookups.add(millisSince(start));
      if (bytes == 0) {
        throw new IllegalStateException("empty zarr.json documents");
      }
    }
    report("open_snapshot_10000_nodes", opens);
    report("read_1000_nodes_after_open", lookups);
  }

  /** The n-th of the node lookups: spread over groups and arrays, the same on both sides. */
  static String lookupPath(int n) {
    return groupPath(n % GROUPS) + "/" + arrayName((n * 37) % ARRAYS_PER_GROUP);
  }

  /**
   * Per round: a fresh session writes 1,000 chunks of 1 KiB (one {@code setChunks} call, which
   * writes them concurrently, as zarr's writes through Python's store are), commits them, then
   * the repository is opened again and the chunks read back.
   */
  static void commit(BucketStorage storage, StoragePath prefix, int rounds) {
    IcechunkRepository repository =
        IcechunkRepository.create(BucketObjectStore.of(storage), prefix);
    WritableSession setup = repository.writableSession("main");
    setup.createGroup("/", Map.of());
    setup.setMetadata("/data", arrayJson((long) CHUNKS * CHUNK_ELEMENTS, CHUNK_ELEMENTS));
    setup.commit("array", Map.of());
    List<Double> writes = new ArrayList<>();
    List<Double> commits = new ArrayList<>();
    List<Double> reads = new ArrayList<>();
    for (int round = -COMMIT_WARM_UP_ROUNDS; round < rounds; round++) {
      if (round == 0) {
        writes.subList(1, writes.size()).clear();
        commits.subList(1, commits.size()).clear();
        reads.subList(1, reads.size()).clear();
      }
      WritableSession session = repository.writableSession("main");
      Map<ChunkIndex, byte[]> chunks = new LinkedHashMap<>();
      for (int c = 0; c < CHUNKS; c++) {
        byte[] chunk = new byte[CHUNK_ELEMENTS * 4];
        chunk[0] = (byte) round;
        chunk[1] = (byte) c;
        chunks.put(ChunkIndex.of(c), chunk);
      }
      long start = System.nanoTime();
      session.setChunks("/data", chunks);
      writes.add(millisSince(start));
      start = System.nanoTime();
      session.commit(CHUNKS + " chunks, round " + round, Map.of("round", round));
      commits.add(millisSince(start));
      start = System.nanoTime();
      ReadSession reader = IcechunkRepository.open(BucketObjectStore.of(storage), prefix)
          .readonlySession(Ref.branch("main"));
      for (int c = 0; c < CHUNKS; c++) {
        byte[] read = reader.chunk("/data", ChunkIndex.of(c)).orElseThrow();
        if (read[0] != (byte) round || read[1] != (byte) c) {
          throw new IllegalStateException("chunk " + c + " of round " + round + " reads wrong");
        }
      }
      reads.add(millisSince(start));
    }
    report("write_" + CHUNKS + "_chunks", writes);
    report("commit_" + CHUNKS + "_chunks", commits);
    report("open_and_read_" + CHUNKS + "_chunks", reads);
  }

  static String groupPath(int g) {
    return String.format(Locale.ROOT, "/g%03d", g);
  }

  static String arrayName(int a) {
    return String.format(Locale.ROOT, "a%03d", a);
  }

  /** A float32 Zarr v3 array without compression, so stored chunk bytes are the raw values. */
  static byte[] arrayJson(long length, int chunk) {
    return ("{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[" + length + "],"
        + "\"data_type\":\"float32\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":"
        + "{\"chunk_shape\":[" + chunk + "]}},\"chunk_key_encoding\":{\"name\":\"default\","
        + "\"configuration\":{\"separator\":\"/\"}},\"fill_value\":0.0,\"codecs\":[{\"name\":"
        + "\"bytes\",\"configuration\":{\"endian\":\"little\"}}],\"attributes\":{}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  static double millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }

  static void report(String what, double millis) {
    report(what, List.of(millis));
  }

  /**
   * The first round (a cold JVM for the first step) and the median of the measured rounds; the
   * list holds the first round, then the measured ones.
   */
  static void report(String what, List<Double> millis) {
    List<Double> sorted = new ArrayList<>(millis.size() == 1 ? millis
        : millis.subList(1, millis.size()));
    Collections.sort(sorted);
    System.out.printf(Locale.ROOT,
        "{\"impl\":\"floe\",\"what\":\"%s\",\"rounds\":%d,\"first_ms\":%.1f,\"median_ms\":%.1f}%n",
        what, sorted.size(), millis.get(0), sorted.get(sorted.size() / 2));
  }
}
