package io.floe.adapters.icechunk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.IcechunkFormatException;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.OpsLogEntry;
import io.floe.adapters.icechunk.format.RepoInfo;
import io.floe.adapters.icechunk.format.TransactionLog;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcechunkRepositoryTest {
  private static final StoragePath PREFIX = new StoragePath("org/repos/weather");

  @TempDir
  Path dir;
  BucketStorage storage;

  @BeforeEach
  void setUp() {
    storage = new LocalBucketStorage(dir);
  }

  private IcechunkRepository createWithArray() {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession s = repo.writableSession("main");
    s.createGroup("/", Map.of("title", "root"));
    s.createGroup("/a/b", Map.of());
    s.setMetadata("/a/x", TestArrays.arrayJson("int32", new long[] {8}, new long[] {4}, 0, false,
        "{\"units\":\"m\"}", "[\"t\"]"));
    s.setChunk("/a/x", ChunkIndex.of(0), TestArrays.int32s(1, 2, 3, 4));
    s.setChunk("/a/x", ChunkIndex.of(1), TestArrays.int32s(5, 6, 7, 8));
    s.commit("first", Map.of("author", "floe", "nested", Map.of("l", List.of(1, 2.5, true))));
    return repo;
  }

  @Test
  void createWritesTheWellKnownFirstSnapshotAndMainBranch() {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    assertThat(repo.branches()).containsOnlyKeys("main");
    assertThat(repo.branches().get("main")).isEqualTo(ObjectId12.INITIAL_SNAPSHOT);
    assertThat(storage.exists(PREFIX.resolve("snapshots/1CECHNKREP0F1RSTCMT0"))).isTrue();
    assertThat(storage.exists(PREFIX.resolve("transactions/1CECHNKREP0F1RSTCMT0"))).isTrue();
    List<CommitInfo> log = repo.log(Ref.branch("main"));
    assertThat(log).hasSize(1);
    assertThat(log.get(0).message()).isEqualTo("Repository initialized");
    assertThat(log.get(0).metadata()).isEqualTo(Map.of("__icechunk", Map.of("is_root", true)));
    assertThatThrownBy(() -> IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX))
        .isInstanceOf(IcechunkException.class).hasMessageContaining("not empty");
  }

  @Test
  void openingAMissingRepositoryNamesTheLocation() {
    assertThatThrownBy(() -> IcechunkRepository.open(
        BucketObjectStore.of(storage), new StoragePath("nothing/here")))
        .isInstanceOf(IcechunkNotFoundException.class)
        .hasMessageContaining("nothing/here/repo");
  }

  @Test
  void committedNodesChunksAndMetadataReadBackAfterReopen() {
    IcechunkRepository created = createWithArray();
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    ReadSession r = repo.readonlySession(Ref.branch("main"));
    assertThat(r.nodes()).extracting(n -> n.path()).containsExactly("/", "/a/b", "/a/x");
    assertThat(r.attributes("/")).isEqualTo(Map.of("title", "root"));
    assertThat(r.attributes("a/x")).isEqualTo(Map.of("units", "m"));
    assertThat(r.node("/a/x").orElseThrow().dimensionNames()).containsExactly("t");
    assertThat(r.node("/a/x").orElseThrow().shape().get(0).numChunks()).isEqualTo(2);
    assertThat(r.chunk("/a/x", ChunkIndex.of(1))).contains(TestArrays.int32s(5, 6, 7, 8));
    assertThat(r.chunkRefs("/a/x").get(ChunkIndex.of(0))).isInstanceOf(ChunkPayload.Inline.class);
    List<CommitInfo> log = repo.log(Ref.branch("main"));
    assertThat(log).extracting(CommitInfo::message).containsExactly("first", "Repository initialized");
    assertThat(log.get(0).parentId()).isEqualTo(ObjectId12.INITIAL_SNAPSHOT);
    assertThat(log.get(0).metadata()).isEqualTo(
        Map.of("author", "floe", "nested", Map.of("l", List.of(1L, 2.5, true))));
    assertThat(created.branches()).isEqualTo(repo.branches());
  }

  @Test
  void largeChunksBecomeChunkObjectsAndSmallOnesStayInline() {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession s = repo.writableSession("main");
    s.setMetadata("/big", TestArrays.arrayJson("float64", new long[] {200}, new long[] {100}, 0.0,
        false, null, null));
    double[] values = new double[100];
    for (int i = 0; i < values.length; i++) {
      values[i] = i * 0.25;
    }
    byte[] chunk = TestArrays.float64s(values);
    s.setChunk("/big", ChunkIndex.of(1), chunk);
    s.setChunk("/big", ChunkIndex.of(0), new byte[512]);
    ObjectId12 id = s.commit("big", Map.of());
    ReadSession r = repo.readonlySession(Ref.snapshot(id));
    assertThat(r.chunkRefs("/big").get(ChunkIndex.of(1))).isInstanceOf(ChunkPayload.Native.class);
    assertThat(r.chunkRefs("/big").get(ChunkIndex.of(0))).isInstanceOf(ChunkPayload.Inline.class);
    assertThat(r.chunk("/big", ChunkIndex.of(1))).contains(chunk);
    ChunkPayload.Native nat = (ChunkPayload.Native) r.chunkRefs("/big").get(ChunkIndex.of(1));
    assertThat(storage.exists(PREFIX.resolve("chunks/" + nat.chunkId()))).isTrue();
  }

  @Test
  void branchesTagsAndSnapshotAddressing() {
    IcechunkRepository repo = createWithArray();
    ObjectId12 first = repo.branches().get("main");
    repo.createTag("v1", first);
    repo.createBranch("dev", first);
    WritableSession dev = repo.writableSession("dev");
    dev.setChunk("/a/x", ChunkIndex.of(0), TestArrays.int32s(9, 9, 9, 9));
    dev.setAttributes("/", Map.of("title", "dev"));
    ObjectId12 devTip = dev.commit("on dev", Map.of());

    assertThat(repo.readonlySession(Ref.branch("main")).chunk("/a/x", ChunkIndex.of(0)))
        .contains(TestArrays.int32s(1, 2, 3, 4));
    assertThat(repo.readonlySession(Ref.tag("v1")).attributes("/")).containsEntry("title", "root");
    assertThat(repo.readonlySession(Ref.branch("dev")).chunk("/a/x", ChunkIndex.of(0)))
        .contains(TestArrays.int32s(9, 9, 9, 9));
    assertThat(repo.readonlySession(Ref.snapshot(devTip)).attributes("/")).containsEntry("title", "dev");
    // Untouched chunks keep coming from the parent's data.
    assertThat(repo.readonlySession(Ref.branch("dev")).chunk("/a/x", ChunkIndex.of(1)))
        .contains(TestArrays.int32s(5, 6, 7, 8));
    assertThat(repo.log(Ref.branch("dev"))).extracting(CommitInfo::message)
        .containsExactly("on dev", "first", "Repository initialized");

    assertThatThrownBy(() -> repo.createTag("v1", devTip)).hasMessageContaining("already exists");
    repo.deleteTag("v1");
    assertThat(repo.tags()).isEmpty();
    assertThatThrownBy(() -> repo.createTag("v1", devTip)).hasMessageContaining("cannot be reused");
    assertThatThrownBy(() -> repo.readonlySession(Ref.tag("nope")))
        .isInstanceOf(IcechunkNotFoundException.class).hasMessageContaining("tag 'nope'");
    repo.deleteBranch("dev");
    assertThat(repo.branches()).containsOnlyKeys("main");
  }

  @Test
  void everyRepoUpdateBacksUpThePreviousFileAndExtendsTheOpsLog() throws Exception {
    IcechunkRepository repo = createWithArray();
    repo.createBranch("dev", repo.branches().get("main"));
    RepoInfo info = repo.info();
    assertThat(info.latestUpdates()).extracting(OpsLogEntry::kind).containsExactly(
        OpsLogEntry.Kind.BRANCH_CREATED, OpsLogEntry.Kind.NEW_COMMIT,
        OpsLogEntry.Kind.REPO_INITIALIZED);
    assertThat(info.latestUpdates().get(0).backupPath()).isNull();
    for (OpsLogEntry e : info.latestUpdates().subList(1, 3)) {
      assertThat(e.backupPath()).startsWith("repo.");
      assertThat(storage.exists(PREFIX.resolve("overwritten/" + e.backupPath()))).isTrue();
    }
    try (var files = Files.list(dir.resolve(PREFIX.value()).resolve("overwritten"))) {
      assertThat(files.count()).isEqualTo(2);
    }
  }

  @Test
  void overflowingOpsLogMovesOlderEntriesIntoTheBackupChain() {
    IcechunkRepository repo =
        IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX).withOpsLogLimit(3);
    ObjectId12 first = repo.branches().get("main");
    for (int i = 0; i < 4; i++) {
      repo.createBranch("b" + i, first);
    }
    RepoInfo info = repo.info();
    assertThat(info.latestUpdates()).hasSize(3);
    assertThat(info.latestUpdates()).extracting(OpsLogEntry::name).containsExactly("b3", "b2", "b1");
    // Following repo_before_updates through the backups recovers the whole history.
    java.util.Set<OpsLogEntry.Kind> kinds = new java.util.HashSet<>();
    java.util.Set<String> names = new java.util.HashSet<>();
    String before = info.repoBeforeUpdates();
    assertThat(before).isNotNull();
    while (before != null) {
      byte[] older = storage.get(PREFIX.resolve("overwritten/" + before)).orElseThrow().data();
      RepoInfo previous = io.floe.adapters.icechunk.format.RepoInfoCodec.decode(before, older);
      previous.latestUpdates().forEach(e -> {
        kinds.add(e.kind());
        names.add(e.name());
      });
      before = previous.repoBeforeUpdates();
    }
    assertThat(kinds).contains(OpsLogEntry.Kind.REPO_INITIALIZED);
    assertThat(names).contains("b0");
  }

  @Test
  void transactionLogRecordsWhatTheCommitChanged() {
    IcechunkRepository repo = createWithArray();
    ObjectId12 id = repo.branches().get("main");
    TransactionLog log = new RepoObjects(BucketObjectStore.of(storage), PREFIX).transactionLog(id);
    ReadSession r = repo.readonlySession(Ref.branch("main"));
    assertThat(log.newGroups()).hasSize(2);
    assertThat(log.newArrays()).containsExactly(r.node("/a/x").orElseThrow().id());
    assertThat(log.updatedChunks().get(r.node("/a/x").orElseThrow().id()))
        .containsExactly(ChunkIndex.of(0), ChunkIndex.of(1));
  }

  @Test
  void deletingNodesRemovesTheSubtree() {
    IcechunkRepository repo = createWithArray();
    WritableSession s = repo.writableSession("main");
    s.deleteNode("/a");
    assertThat(s.nodes()).extracting(n -> n.path()).containsExactly("/");
    s.commit("delete a", Map.of());
    assertThat(repo.readonlySession(Ref.branch("main")).node("/a/x")).isEmpty();
  }

  @Test
  void staleSessionGetsATypedConflictNamingBothParents() {
    IcechunkRepository repo = createWithArray();
    ObjectId12 base = repo.branches().get("main");
    WritableSession a = repo.writableSession("main");
    WritableSession b = repo.writableSession("main");
    a.setChunk("/a/x", ChunkIndex.of(0), TestArrays.int32s(0, 0, 0, 1));
    ObjectId12 won = a.commit("a", Map.of());
    b.setChunk("/a/x", ChunkIndex.of(1), TestArrays.int32s(0, 0, 0, 2));
    assertThatThrownBy(() -> b.commit("b", Map.of()))
        .isInstanceOfSatisfying(CommitConflictException.class, e -> {
          assertThat(e.expectedParent()).isEqualTo(base);
          assertThat(e.actualParent()).isEqualTo(won);
          assertThat(e.getMessage()).contains(base.toString()).contains(won.toString());
        });
    assertThat(repo.branches().get("main")).isEqualTo(won);
  }

  @Test
  void disjointChangesRebaseAndLand() {
    IcechunkRepository repo = createWithArray();
    WritableSession a = repo.writableSession("main");
    WritableSession b = repo.writableSession("main");
    a.setChunk("/a/x", ChunkIndex.of(0), TestArrays.int32s(0, 0, 0, 1));
    a.setAttributes("/", Map.of("title", "from a"));
    ObjectId12 won = a.commit("a", Map.of());
    b.setChunk("/a/x", ChunkIndex.of(1), TestArrays.int32s(0, 0, 0, 2));
    b.createGroup("/from_b", Map.of("k", 1));
    b.rebase();
    assertThat(b.snapshotId()).isEqualTo(won);
    ObjectId12 landed = b.commit("b", Map.of());
    ReadSession r = repo.readonlySession(Ref.branch("main"));
    assertThat(r.snapshotId()).isEqualTo(landed);
    assertThat(r.chunk("/a/x", ChunkIndex.of(0))).contains(TestArrays.int32s(0, 0, 0, 1));
    assertThat(r.chunk("/a/x", ChunkIndex.of(1))).contains(TestArrays.int32s(0, 0, 0, 2));
    assertThat(r.attributes("/")).containsEntry("title", "from a");
    assertThat(r.node("/from_b")).isPresent();
    assertThat(repo.log(Ref.branch("main"))).extracting(CommitInfo::message)
        .startsWith("b", "a", "first");
  }

  @Test
  void realConflictsAreReportedNotResolved() {
    IcechunkRepository repo = createWithArray();
    WritableSession a = repo.writableSession("main");
    WritableSession b = repo.writableSession("main");
    a.setChunk("/a/x", ChunkIndex.of(0), TestArrays.int32s(0, 0, 0, 1));
    a.setAttributes("/", Map.of("title", "from a"));
    a.createGroup("/same", Map.of());
    a.commit("a", Map.of());
    b.setChunk("/a/x", ChunkIndex.of(0), TestArrays.int32s(0, 0, 0, 2));
    b.setAttributes("/", Map.of("title", "from b"));
    b.createGroup("/same", Map.of());
    ObjectId12 before = b.snapshotId();
    assertThatThrownBy(b::rebase).isInstanceOfSatisfying(RebaseConflictException.class, e ->
        assertThat(e.conflicts()).extracting(RebaseConflictException.Conflict::kind)
            .containsExactlyInAnyOrder(
                RebaseConflictException.Conflict.Kind.CHUNK_DOUBLE_UPDATE,
                RebaseConflictException.Conflict.Kind.NODE_METADATA_DOUBLE_UPDATE,
                RebaseConflictException.Conflict.Kind.NODE_CREATED_TWICE));
    assertThat(b.snapshotId()).isEqualTo(before);
    assertThat(repo.readonlySession(Ref.branch("main")).chunk("/a/x", ChunkIndex.of(0)))
        .contains(TestArrays.int32s(0, 0, 0, 1));
  }

  @Test
  void deleteAgainstUpdateIsAConflict() {
    IcechunkRepository repo = createWithArray();
    WritableSession a = repo.writableSession("main");
    WritableSession b = repo.writableSession("main");
    a.deleteNode("/a/x");
    a.commit("a deletes", Map.of());
    b.setChunk("/a/x", ChunkIndex.of(1), TestArrays.int32s(0, 0, 0, 2));
    assertThatThrownBy(b::rebase).isInstanceOfSatisfying(RebaseConflictException.class, e ->
        assertThat(e.conflicts()).extracting(RebaseConflictException.Conflict::kind)
            .containsExactly(RebaseConflictException.Conflict.Kind.UPDATED_NODE_DELETED));
  }

  @Test
  void concurrentCommitsOnOneBranchNeverBothWin() throws Exception {
    IcechunkRepository repo = createWithArray();
    int writers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch ready = new CountDownLatch(writers);
    try {
      List<Callable<Object>> tasks = new java.util.ArrayList<>();
      for (int i = 0; i < writers; i++) {
        int n = i;
        tasks.add(() -> {
          WritableSession s = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX)
              .writableSession("main");
          s.createGroup("/w" + n, Map.of());
          ready.countDown();
          ready.await();
          try {
            return s.commit("writer " + n, Map.of());
          } catch (CommitConflictException e) {
            return e;
          }
        });
      }
      List<Object> results = new java.util.ArrayList<>();
      for (Future<Object> f : pool.invokeAll(tasks)) {
        results.add(f.get());
      }
      long wins = results.stream().filter(r -> r instanceof ObjectId12).count();
      assertThat(wins).isEqualTo(1);
      ObjectId12 winner = (ObjectId12) results.stream().filter(r -> r instanceof ObjectId12)
          .findFirst().orElseThrow();
      assertThat(repo.branches().get("main")).isEqualTo(winner);
      assertThat(repo.log(Ref.branch("main"))).hasSize(3);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void emptyCommitIsRefused() {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    assertThatThrownBy(() -> repo.writableSession("main").commit("nothing", Map.of()))
        .hasMessageContaining("no changes");
  }

  @Test
  void damagedSnapshotFileIsReportedByName() throws Exception {
    IcechunkRepository repo = createWithArray();
    ObjectId12 id = repo.branches().get("main");
    Path file = dir.resolve(PREFIX.value()).resolve("snapshots").resolve(id.toString());
    byte[] data = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(data, data.length / 2));
    IcechunkRepository reopened = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    assertThatThrownBy(() -> reopened.readonlySession(Ref.branch("main")))
        .isInstanceOf(IcechunkFormatException.class)
        .hasMessageContaining("snapshots/" + id).hasMessageContaining("zstd");
    Files.delete(file);
    IcechunkRepository again = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    assertThatThrownBy(() -> again.readonlySession(Ref.branch("main")))
        .isInstanceOf(IcechunkNotFoundException.class)
        .hasMessageContaining("snapshots/" + id);
  }

  @Test
  void repositoryWithUnsupportedSpecVersionIsNeverWritten() throws Exception {
    createWithArray();
    Path repoFile = dir.resolve(PREFIX.value()).resolve("repo");
    byte[] data = Files.readAllBytes(repoFile);
    data[36] = 7;
    Files.write(repoFile, data);
    assertThatThrownBy(() -> IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX))
        .isInstanceOf(IcechunkFormatException.class)
        .hasMessageContaining("unsupported Icechunk spec version 7");
    assertThat(Files.readAllBytes(repoFile)).isEqualTo(data);
  }
}
