package io.floe.adapters.icechunk.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.PythonIcechunk;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.TestArrays;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reachability against Python Icechunk's own garbage collector: a repository with a tag pinning
 * an old snapshot, a live branch and an abandoned (deleted) one. What Floe finds unreachable is
 * exactly what Python's dry run would delete, and after Python really collects, exactly what
 * Floe found reachable is left.
 */
class RepositoryReachabilityTest {
  private static final StoragePath PREFIX = new StoragePath("repos/gc");

  @TempDir
  Path dir;

  @BeforeAll
  static void requirePython() {
    assumeFalse(PythonIcechunk.skipRequested(), "floe.skipPythonInterop=true");
    PythonIcechunk.requireAvailable();
  }

  @Test
  void unreachableObjectsAreWhatPythonsCollectorDeletesAndReachableOnesWhatItKeeps()
      throws Exception {
    Path repoDir = dir.resolve(PREFIX.value());
    Instant before = Instant.now().minusSeconds(120);
    JsonNode built = PythonIcechunk.run("gc-build", repoDir.toString());
    IcechunkRepository repo =
        IcechunkRepository.open(BucketObjectStore.of(new LocalBucketStorage(dir)), PREFIX);

    ReachableObjects reachable = RepositoryReachability.walk(repo);
    Set<String> expectedSnapshots = new TreeSet<>();
    built.get("refs").get("branches").forEach(a -> a.forEach(id -> expectedSnapshots.add(id.asText())));
    built.get("refs").get("tags").forEach(a -> a.forEach(id -> expectedSnapshots.add(id.asText())));
    assertThat(names(reachable.snapshots())).isEqualTo(expectedSnapshots);
    assertThat(names(reachable.snapshots())).doesNotContain(
        built.get("commits").get("abandoned 1").asText(),
        built.get("commits").get("abandoned 2").asText());
    assertThat(reachable.transactionLogs()).isEqualTo(reachable.snapshots());
    assertThat(reachable.tags()).containsOnlyKeys("v1");
    assertThat(reachable.branches()).containsOnlyKeys("main", "dev");
    for (ObjectId12 id : reachable.snapshots()) {
      JsonNode pointers = built.get("pointers").get(id.toString());
      Map<String, String> expected = new TreeMap<>();
      if (pointers != null) {
        pointers.fields().forEachRemaining(e -> expected.put(e.getKey(), e.getValue().asText()));
      }
      assertThat(reachable.tablePointers().get(id)).as("pointers of " + id).isEqualTo(expected);
    }

    List<StoredRepoObject> stored = RepositoryReachability.stored(repo);
    for (StoredRepoObject o : stored) {
      assertThat(o.sizeBytes()).isEqualTo(Files.size(repoDir.resolve(o.key())));
      assertThat(o.lastModified()).isAfter(before);
    }
    List<StoredRepoObject> unreachable = reachable.unreachable(stored);
    Map<StoredRepoObject.Kind, Long> counts = unreachable.stream()
        .collect(Collectors.groupingBy(StoredRepoObject::kind, Collectors.counting()));
    JsonNode dryRun = PythonIcechunk.run("gc-run", repoDir.toString(), "true");
    assertThat(counts.getOrDefault(StoredRepoObject.Kind.SNAPSHOT, 0L))
        .isEqualTo(dryRun.get("snapshots_deleted").asLong()).isEqualTo(2);
    assertThat(counts.getOrDefault(StoredRepoObject.Kind.TRANSACTION_LOG, 0L))
        .isEqualTo(dryRun.get("transaction_logs_deleted").asLong());
    assertThat(counts.getOrDefault(StoredRepoObject.Kind.MANIFEST, 0L))
        .isEqualTo(dryRun.get("manifests_deleted").asLong());
    assertThat(counts.getOrDefault(StoredRepoObject.Kind.CHUNK, 0L))
        .isEqualTo(dryRun.get("chunks_deleted").asLong()).isPositive();
    assertThat(counts).doesNotContainKey(StoredRepoObject.Kind.REPO_INFO);

    PythonIcechunk.run("gc-run", repoDir.toString(), "false");
    List<StoredRepoObject> kept = RepositoryReachability.stored(repo);
    assertThat(ids(kept, StoredRepoObject.Kind.SNAPSHOT)).isEqualTo(names(reachable.snapshots()));
    assertThat(ids(kept, StoredRepoObject.Kind.MANIFEST)).isEqualTo(names(reachable.manifests()));
    assertThat(ids(kept, StoredRepoObject.Kind.CHUNK)).isEqualTo(names(reachable.chunks()));
    assertThat(ids(kept, StoredRepoObject.Kind.TRANSACTION_LOG))
        .isEqualTo(names(reachable.transactionLogs()));
    // Everything that was reachable still reads, at every ref.
    ReadSession tagged = repo.readonlySession(Ref.tag("v1"));
    tagged.chunkRefs("/a").keySet().forEach(index -> assertThat(tagged.chunk("/a", index)).isPresent());
    // The collection itself is an ops-log update (a new repo file backup); nothing else moved.
    ReachableObjects after = RepositoryReachability.walk(repo);
    assertThat(after.chunks()).isEqualTo(reachable.chunks());
    assertThat(after.tablePointers()).isEqualTo(reachable.tablePointers());
    assertThat(after.repoInfoFiles()).containsAll(reachable.repoInfoFiles());
  }

  @Test
  void floeCommitsOnAbandonedBranchesBecomeUnreachableAndTagsKeepTheirChunks() {
    IcechunkRepository repo =
        IcechunkRepository.create(BucketObjectStore.of(new LocalBucketStorage(dir)), PREFIX);
    WritableSession s = repo.writableSession("main");
    s.createGroup("/", Map.of());
    s.setMetadata("/a", TestArrays.arrayJson("float64", new long[] {200}, new long[] {100}, 0.0,
        false, null, null));
    s.setChunk("/a", io.floe.adapters.icechunk.format.ChunkIndex.of(0), TestArrays.float64s(new double[100]));
    ObjectId12 first = s.commit("first", Map.of("iceberg:table_versions", Map.of("t", "m0")));
    repo.createTag("pinned", first);
    s.setChunk("/a", io.floe.adapters.icechunk.format.ChunkIndex.of(0), TestArrays.float64s(new double[100]));
    s.commit("overwrite", Map.of());
    repo.createBranch("scratch", first);
    WritableSession scratch = repo.writableSession("scratch");
    scratch.setChunk("/a", io.floe.adapters.icechunk.format.ChunkIndex.of(1), TestArrays.float64s(new double[100]));
    ObjectId12 lost = scratch.commit("scratch", Map.of());
    repo.deleteBranch("scratch");

    ReachableObjects reachable = RepositoryReachability.walk(repo);
    assertThat(reachable.snapshots()).contains(first).doesNotContain(lost);
    assertThat(reachable.tablePointers().get(first)).isEqualTo(Map.of("t", "m0"));
    List<StoredRepoObject> unreachable = reachable.unreachable(RepositoryReachability.stored(repo));
    assertThat(unreachable).extracting(StoredRepoObject::kind).containsExactlyInAnyOrder(
        StoredRepoObject.Kind.SNAPSHOT, StoredRepoObject.Kind.TRANSACTION_LOG,
        StoredRepoObject.Kind.MANIFEST, StoredRepoObject.Kind.CHUNK);
    assertThat(unreachable).extracting(StoredRepoObject::key).contains("snapshots/" + lost);
  }

  private static Set<String> names(Set<ObjectId12> ids) {
    return ids.stream().map(ObjectId12::toString).collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> ids(List<StoredRepoObject> stored, StoredRepoObject.Kind kind) {
    return stored.stream().filter(o -> o.kind() == kind)
        .map(o -> o.key().substring(o.key().indexOf('/') + 1))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
