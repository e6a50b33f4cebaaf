import io.floe.adapters.icechunk.IcechunkRepository;
import io.floe.adapters.icechunk.ReadSession;
import io.floe.adapters.icechunk.Ref;
import io.floe.adapters.icechunk.WritableSession;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Floe's side of the Icechunk benchmark (not a test; run by run.sh next to this file). Prints one
 * JSON object per measurement on stdout, in milliseconds.
 *
 * <p>Usage: {@code IcechunkBench <work dir> build-nodes <prefix>} builds the 10,000-node repository;
 * {@code open <prefix> <rounds>} measures opening a snapshot of any repository (Floe- or
 * Python-built); {@code commit <prefix> <rounds>} measures 1,000 chunk writes and their commit.
 */
public final class IcechunkBench {
  static final int GROUPS = 99;
  static final int ARRAYS_PER_GROUP = 100;
  static final int CHUNKS = 1_000;
  /** float32 elements per chunk: 1 KiB, above the 512-byte inline threshold, so real chunk objects. */
  static final int CHUNK_ELEMENTS = 256;

  public static void main(String[] args) {
    BucketStorage storage = new LocalBucketStorage(Path.of(args[0]));
    StoragePath prefix = new StoragePath(args[2]);
    switch (args[1]) {
      case "build-nodes" -> buildNodes(storage, prefix);
      case "open" -> open(storage, prefix, Integer.parseInt(args[3]));
      case "commit" -> commit(storage, prefix, Integer.parseInt(args[3]));
      default -> throw new IllegalArgumentException("unknown step " + args[1]);
    }
  }

  /** Root group, 99 groups, 100 small arrays in each: 10,000 nodes in one commit. */
  static void buildNodes(BucketStorage storage, StoragePath prefix) {
    long start = System.nanoTime();
    IcechunkRepository repository = IcechunkRepository.create(storage, prefix);
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
    List<Double> listings = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      long start = System.nanoTime();
      ReadSession session = IcechunkRepository.open(storage, prefix).readonlySession(
          Ref.branch("main"));
      byte[] zarrJson = session.zarrJson(groupPath(50) + "/" + arrayName(50));
      opens.add(millisSince(start));
      if (zarrJson.length == 0) {
        throw new IllegalStateException("empty zarr.json");
      }
      start = System.nanoTime();
      int nodes = session.nodes().size();
      listings.add(millisSince(start));
      if (nodes != 10_000) {
        throw new IllegalStateException("expected 10,000 nodes, found " + nodes);
      }
    }
    report("open_snapshot_10000_nodes", opens);
    report("list_10000_nodes_after_open", listings);
  }

  /** Per round: a fresh session writes 1,000 chunks of 1 KiB, then commits them. */
  static void commit(BucketStorage storage, StoragePath prefix, int rounds) {
    IcechunkRepository repository = IcechunkRepository.create(storage, prefix);
    WritableSession setup = repository.writableSession("main");
    setup.createGroup("/", Map.of());
    setup.setMetadata("/data", arrayJson((long) CHUNKS * CHUNK_ELEMENTS, CHUNK_ELEMENTS));
    setup.commit("array", Map.of());
    byte[] chunk = new byte[CHUNK_ELEMENTS * 4];
    List<Double> writes = new ArrayList<>();
    List<Double> commits = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      WritableSession session = repository.writableSession("main");
      long start = System.nanoTime();
      for (int c = 0; c < CHUNKS; c++) {
        chunk[0] = (byte) round;
        chunk[1] = (byte) c;
        session.setChunk("/data", ChunkIndex.of(c), chunk);
      }
      writes.add(millisSince(start));
      start = System.nanoTime();
      session.commit("1,000 chunks, round " + round, Map.of("round", round));
      commits.add(millisSince(start));
    }
    report("write_1000_chunks", writes);
    report("commit_1000_chunks", commits);
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

  /** The first round (a cold JVM for the first step) and the median of all rounds. */
  static void report(String what, List<Double> millis) {
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    System.out.printf(Locale.ROOT,
        "{\"impl\":\"floe\",\"what\":\"%s\",\"rounds\":%d,\"first_ms\":%.1f,\"median_ms\":%.1f}%n",
        what, millis.size(), millis.get(0), sorted.get(sorted.size() / 2));
  }
}
