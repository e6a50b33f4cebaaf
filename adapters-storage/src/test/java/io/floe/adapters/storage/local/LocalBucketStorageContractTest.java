package io.floe.adapters.storage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.application.port.out.contract.BucketStorageContract;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract on the local filesystem, and what only a local bucket has to show: nothing
 * outside its directory is reached through a symbolic link, and what it writes is 0640 in
 * directories 0750.
 */
class LocalBucketStorageContractTest extends BucketStorageContract {
  @TempDir
  static Path root;

  private LocalBucketStorage storage;

  @Override
  protected BucketStorage storage() {
    if (storage == null) {
      storage = new LocalBucketStorage(root);
    }
    return storage;
  }

  @Override
  protected String expectedUri(StoragePath key) {
    return root.toAbsolutePath().normalize().resolve(key.value()).toUri().toString();
  }

  /** DuckDB writes a table's manifests and data files without creating their directories. */
  @Test
  void aPreparedLocationIsADirectoryEnginesWriteFilesStraightInto() throws IOException {
    StoragePath table = key("ns-prefix/table-1");
    storage().prepareLocation(table.resolve("metadata"));
    assertThat(storage().isEmptyUnder(table)).isTrue();

    Path manifest = root.resolve(table.value()).resolve("metadata").resolve("m0.avro");
    Files.write(manifest, new byte[] {1});
    assertThat(storage().list(table, 10)).containsExactly(table.resolve("metadata/m0.avro"));
  }

  @Test
  void objectsAndTheirDirectoriesAreNotWorldReadable() throws IOException {
    storage().put(new StoragePath("modes/a/b/object"), "data".getBytes(StandardCharsets.UTF_8));
    Path object = root.resolve("modes/a/b/object");
    assertThat(mode(object)).isEqualTo("rw-r-----");
    assertThat(mode(root.resolve("modes/a/b"))).isEqualTo("rwxr-x---");
    assertThat(mode(root.resolve("modes"))).isEqualTo("rwxr-x---");
    storage().putIfAbsent(new StoragePath("modes/c"), new byte[] {1});
    assertThat(mode(root.resolve("modes/c"))).isEqualTo("rw-r-----");
  }

  @Test
  void aLinkInsideTheBucketReachesNothingOutsideIt(@TempDir Path elsewhere) throws IOException {
    Files.writeString(elsewhere.resolve("secret"), "outside");
    Files.createDirectories(root.resolve("linked"));
    Files.createSymbolicLink(root.resolve("linked/out"), elsewhere);
    Files.createSymbolicLink(root.resolve("linked/file"), elsewhere.resolve("secret"));
    Files.createSymbolicLink(root.resolve("linked/dangling"), elsewhere.resolve("planted"));

    assertThatThrownBy(() -> storage().get(new StoragePath("linked/out/secret")))
        .isInstanceOf(RefusedLocationException.class);
    assertThatThrownBy(() -> storage().get(new StoragePath("linked/file")))
        .isInstanceOf(RefusedLocationException.class);
    assertThatThrownBy(() -> storage().put(new StoragePath("linked/out/planted"), new byte[1]))
        .isInstanceOf(RefusedLocationException.class);
    assertThatThrownBy(() -> storage().putIfAbsent(new StoragePath("linked/dangling"),
        new byte[1])).isInstanceOf(RefusedLocationException.class);
    assertThatThrownBy(() -> storage().deleteUnder(new StoragePath("linked/out")))
        .isInstanceOf(RefusedLocationException.class);
    try (var listed = Files.list(elsewhere)) {
      assertThat(listed.map(p -> p.getFileName().toString())).containsExactly("secret");
    }
    assertThat(Files.readString(elsewhere.resolve("secret"))).isEqualTo("outside");
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
