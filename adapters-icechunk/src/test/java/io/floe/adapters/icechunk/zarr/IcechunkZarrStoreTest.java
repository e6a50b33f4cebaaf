package io.floe.adapters.icechunk.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zarr.zarrjava.core.Attributes;
import dev.zarr.zarrjava.store.StoreHandle;
import dev.zarr.zarrjava.v3.Array;
import dev.zarr.zarrjava.v3.DataType;
import dev.zarr.zarrjava.v3.Group;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class IcechunkZarrStoreTest {
  @TempDir
  Path dir;

  /** Writes a group and a float32 array through zarr-java into a session; returns the commit. */
  public static ObjectId12 writeWithZarrJava(IcechunkRepository repo) throws Exception {
    WritableSession session = repo.writableSession("main");
    StoreHandle root = new IcechunkZarrStore(session).resolve();
    Group group = Group.create(root, new Attributes(Map.of("title", "zarr-java")));
    group.createGroup("inner", new Attributes(Map.of("depth", 1)));
    Array array = group.createArray("inner/temps", b -> b.withShape(6).withDataType(DataType.FLOAT32)
        .withChunkShape(3).withFillValue(0).withDimensionNames("t"));
    array.write(ucar.ma2.Array.factory(ucar.ma2.DataType.FLOAT, new int[] {6},
        new float[] {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f}));
    return session.commit("written by zarr-java", Map.of("tool", "zarr-java"));
  }

  @Test
  void zarrJavaWritesIntoASessionAndReadsBackFromACommit() throws Exception {
    IcechunkRepository repo =
        IcechunkRepository.create(BucketObjectStore.of(new LocalBucketStorage(dir)),
        new StoragePath("zj"));
    ObjectId12 id = writeWithZarrJava(repo);

    ReadSession session = repo.readonlySession(Ref.snapshot(id));
    assertThat(session.attributes("/")).containsEntry("title", "zarr-java");
    assertThat(session.attributes("/inner")).containsEntry("depth", 1L);
    assertThat(session.chunkRefs("/inner/temps").keySet())
        .containsExactly(ChunkIndex.of(0), ChunkIndex.of(1));
    assertThat(session.node("/inner/temps").orElseThrow().dimensionNames()).containsExactly("t");

    StoreHandle root = new IcechunkZarrStore(repo.readonlySession(Ref.branch("main"))).resolve();
    Array read = Array.open(root.resolve("inner", "temps"));
    assertThat((float[]) read.read().copyTo1DJavaArray())
        .containsExactly(1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f);
    assertThat(Group.open(root).metadata().attributes).containsEntry("title", "zarr-java");
    assertThat(root.list()).contains("zarr.json", "inner");
  }

  @Test
  void readOnlyStoreRefusesWrites() throws Exception {
    IcechunkRepository repo =
        IcechunkRepository.create(BucketObjectStore.of(new LocalBucketStorage(dir)),
        new StoragePath("zj"));
    writeWithZarrJava(repo);
    StoreHandle root = new IcechunkZarrStore(repo.readonlySession(Ref.branch("main"))).resolve();
    assertThatThrownBy(() -> Group.create(root.resolve("new")))
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("read-only");
  }
}
