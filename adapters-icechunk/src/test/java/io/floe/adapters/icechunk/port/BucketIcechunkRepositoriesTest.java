package io.floe.adapters.icechunk.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.TestArrays;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.RepoContentNotFoundException;
import io.floe.application.port.out.StorageException;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BucketIcechunkRepositoriesTest {
  private static final StoragePath PREFIX = new StoragePath("abcd1234_weather");
  private static final String MARKER = ".marker.json";

  @TempDir
  Path dir;
  BucketConfig bucket;
  LocalBucketStorage storage;
  BucketIcechunkRepositories repositories;

  @BeforeEach
  void setUp() {
    bucket = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("default"),
        StoragePlatform.LOCAL, dir.toString(), StoragePath.root(), Optional.empty(),
        Optional.empty(), false, BucketCredentials.none(), true);
    storage = new LocalBucketStorage(dir);
    repositories = new BucketIcechunkRepositories(b -> storage);
  }

  @Test
  void createsBesideTheClaimMarkerButNowhereElseOccupied() {
    storage.put(PREFIX.resolve(MARKER), "{}".getBytes(StandardCharsets.UTF_8));
    repositories.create(bucket, PREFIX, MARKER);
    assertThat(repositories.refs(bucket, PREFIX).branches())
        .containsExactly(new RepoRefs.Pointer("main", ObjectId12.INITIAL_SNAPSHOT.toString()));

    StoragePath occupied = new StoragePath("efgh5678_other");
    storage.put(occupied.resolve("data.bin"), new byte[] {1});
    assertThatThrownBy(() -> repositories.create(bucket, occupied, MARKER))
        .isInstanceOf(StorageException.class).hasMessageContaining("not empty");
  }

  @Test
  void refsLogAndNodesReadWhatACommitWrote() {
    repositories.create(bucket, PREFIX, MARKER);
    IcechunkRepository repository = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    WritableSession session = repository.writableSession("main");
    session.createGroup("/", Map.of());
    session.createGroup("/climate", Map.of("title", "Climate"));
    session.setMetadata("/climate/t2m", TestArrays.arrayJson("float32", new long[] {4},
        new long[] {2}, 0, false, "{\"units\":\"K\"}", null));
    ObjectId12 commit = session.commit("add t2m", Map.of("source", Map.of("run", 7)));
    repository.createTag("v1", commit);

    RepoRefs refs = repositories.refs(bucket, PREFIX);
    assertThat(refs.tags()).containsExactly(new RepoRefs.Pointer("v1", commit.toString()));
    List<RepoCommit> log = repositories.log(bucket, PREFIX, "v1", 10);
    assertThat(log).extracting(RepoCommit::message)
        .containsExactly("add t2m", IcechunkRepository.INITIAL_MESSAGE);
    assertThat(log.get(0).parentId()).contains(ObjectId12.INITIAL_SNAPSHOT.toString());
    assertThat(log.get(0).metadata()).isEqualTo(Map.of("source", Map.of("run", 7L)));
    assertThat(repositories.log(bucket, PREFIX, "main", 1)).hasSize(1);

    RepoNode array = repositories.node(bucket, PREFIX, commit.toString(), "climate/t2m");
    assertThat(array.kind()).isEqualTo(RepoNode.Kind.ARRAY);
    assertThat(array.attributes()).isEqualTo(Map.of("units", "K"));
    assertThat(array.zarrMetadata()).containsEntry("data_type", "float32")
        .doesNotContainKey("attributes");
    RepoNode group = repositories.node(bucket, PREFIX, "main", "/climate");
    assertThat(group.children()).containsExactly("/climate/t2m");
    assertThat(repositories.node(bucket, PREFIX, "main", "/").children())
        .containsExactly("/climate");
  }

  @Test
  void missingRepositoriesRefsAndNodesAreNotFound() {
    assertThatThrownBy(() -> repositories.refs(bucket, PREFIX))
        .isInstanceOf(RepoContentNotFoundException.class);
    repositories.create(bucket, PREFIX, MARKER);
    assertThatThrownBy(() -> repositories.log(bucket, PREFIX, "no-such-branch", 10))
        .isInstanceOf(RepoContentNotFoundException.class)
        .hasMessageContaining("no-such-branch");
    assertThatThrownBy(() -> repositories.node(bucket, PREFIX, "main", "/missing"))
        .isInstanceOf(RepoContentNotFoundException.class).hasMessageContaining("/missing");
  }
}
