package io.floe.adapters.storage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.PreconditionFailedException;
import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.WritePrecondition;
import io.floe.domain.StoragePath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local bucket as the S3 endpoint streams it: whole and ranged reads, atomic writes, tags. */
class LocalStreamingStorageTest {
  private static final StoragePath REPO_FILE = new StoragePath("r1/repo");

  @TempDir Path root;

  private LocalBucketStorage storage() {
    return new LocalBucketStorage(root);
  }

  @Test
  void anObjectIsReadWholeOrByRangeWithTheTagOfWhatWasRead() throws IOException {
    LocalBucketStorage storage = storage();
    StoredObjectInfo written = write(storage, REPO_FILE, "0123456789", WritePrecondition.none());
    assertThat(written.size()).isEqualTo(10);
    assertThat(storage.stat(REPO_FILE)).contains(written);
    try (StoredObjectContent all = storage.read(REPO_FILE, 0, -1).orElseThrow();
        StoredObjectContent middle = storage.read(REPO_FILE, 3, 4).orElseThrow();
        StoredObjectContent end = storage.read(REPO_FILE, 8, 100).orElseThrow()) {
      assertThat(text(all.stream())).isEqualTo("0123456789");
      assertThat(text(middle.stream())).isEqualTo("3456");
      assertThat(text(end.stream())).isEqualTo("89");
      assertThat(middle.info().etag()).isEqualTo(written.etag());
    }
    assertThat(storage.read(new StoragePath("r1/missing"), 0, -1)).isEmpty();
    assertThat(Files.getPosixFilePermissions(root.resolve("r1/repo")))
        .isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
  }

  @Test
  void everyWriteChangesTheTagEvenWithTheSameBytes() {
    LocalBucketStorage storage = storage();
    String first = write(storage, REPO_FILE, "same", WritePrecondition.none()).etag();
    String second = write(storage, REPO_FILE, "same", WritePrecondition.none()).etag();
    assertThat(second).isNotEqualTo(first);
    assertThat(storage.stat(REPO_FILE)).map(StoredObjectInfo::etag).contains(second);
  }

  @Test
  void conditionalWritesCompareWithTheCurrentObject() throws IOException {
    LocalBucketStorage storage = storage();
    WritePrecondition absent = new WritePrecondition(Optional.empty(), Optional.of("*"));
    String v1 = write(storage, REPO_FILE, "v1", absent).etag();
    assertThatThrownBy(() -> write(storage, REPO_FILE, "v2", absent))
        .isInstanceOf(PreconditionFailedException.class);
    String v2 = write(storage, REPO_FILE, "v2",
        new WritePrecondition(Optional.of("\"" + v1 + "\""), Optional.empty())).etag();
    assertThatThrownBy(() -> write(storage, REPO_FILE, "v3",
        new WritePrecondition(Optional.of(v1), Optional.empty())))
        .isInstanceOf(PreconditionFailedException.class);
    assertThatThrownBy(() -> write(storage, new StoragePath("r1/none"), "x",
        new WritePrecondition(Optional.of("*"), Optional.empty())))
        .isInstanceOf(PreconditionFailedException.class);
    try (StoredObjectContent content = storage.read(REPO_FILE, 0, -1).orElseThrow()) {
      assertThat(text(content.stream())).isEqualTo("v2");
      assertThat(content.info().etag()).isEqualTo(v2);
    }
    assertThat(storage.stat(new StoragePath("r1/none"))).isEmpty();
  }

  @Test
  void ofWritersRacingFromOneVersionExactlyOneWins() throws Exception {
    LocalBucketStorage storage = storage();
    String base = write(storage, REPO_FILE, "base", WritePrecondition.none()).etag();
    WritePrecondition fromBase = new WritePrecondition(Optional.of(base), Optional.empty());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> outcomes = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String content = "writer-" + i;
        Callable<Boolean> attempt = () -> {
          try {
            write(new LocalBucketStorage(root), REPO_FILE, content, fromBase);
            return true;
          } catch (PreconditionFailedException e) {
            return false;
          }
        };
        outcomes.add(pool.submit(attempt));
      }
      long winners = 0;
      for (Future<Boolean> outcome : outcomes) {
        winners += outcome.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aBodyThatEndsEarlyStoresNothingAndLeavesNoTemporaryFile() throws IOException {
    LocalBucketStorage storage = storage();
    assertThatThrownBy(() -> storage.write(REPO_FILE, stream("short"), 100,
        WritePrecondition.none())).isInstanceOf(BadRequestException.class)
        .hasMessageContaining("ended after 5 of the 100 bytes");
    assertThat(storage.stat(REPO_FILE)).isEmpty();
    try (Stream<Path> temps = Files.list(root.resolve(".floe-local/tmp"))) {
      assertThat(temps).isEmpty();
    }
  }

  @Test
  void aKeyCannotBeBothAnObjectAndAPrefixOfObjects() {
    LocalBucketStorage storage = storage();
    write(storage, new StoragePath("r1/a"), "object", WritePrecondition.none());
    assertThatThrownBy(() -> write(storage, new StoragePath("r1/a/b"), "x",
        WritePrecondition.none())).isInstanceOf(BadRequestException.class);
    write(storage, new StoragePath("r1/dir/c"), "object", WritePrecondition.none());
    assertThatThrownBy(() -> write(storage, new StoragePath("r1/dir"), "x",
        WritePrecondition.none())).isInstanceOf(BadRequestException.class);
    assertThat(storage.stat(new StoragePath("r1/dir"))).isEmpty();
    storage.delete(new StoragePath("r1/dir"));
    assertThat(storage.stat(new StoragePath("r1/dir/c"))).isPresent();
  }

  @Test
  void listingsAreInKeyOrderAfterAMarkerWithoutFloesOwnFiles() {
    LocalBucketStorage storage = storage();
    for (String key : List.of("r1/b", "r1/a/2", "r1/a/1", "r1/c", "r2/x")) {
      write(storage, new StoragePath(key), key, WritePrecondition.none());
    }
    storage.putIfVersion(new StoragePath("r1/c"), new byte[] {1}, "not-current");
    assertThat(keys(storage.list(new StoragePath("r1"), Optional.empty(), 10)))
        .containsExactly("r1/a/1", "r1/a/2", "r1/b", "r1/c");
    assertThat(keys(storage.list(new StoragePath("r1"), Optional.of("r1/a/2"), 2)))
        .containsExactly("r1/b", "r1/c");
    assertThat(keys(storage.list(StoragePath.root(), Optional.empty(), 100)))
        .noneMatch(key -> key.startsWith(".floe-local"));
  }

  @Test
  void aKeySegmentLongerThanAFileNameIsTheClientsErrorAndTouchesNothing() throws IOException {
    LocalBucketStorage storage = storage();
    StoragePath fits = new StoragePath("r1/" + "n".repeat(255));
    write(storage, fits, "ok", WritePrecondition.none());
    assertThat(storage.stat(fits)).isPresent();
    // 256 bytes: 'n' plus 85 three-byte characters is 256 bytes in 86 characters.
    for (StoragePath tooLong : List.of(new StoragePath("r1/" + "n".repeat(256)),
        new StoragePath("r1/n" + "\u20ac".repeat(85)),
        new StoragePath("r1/" + "d".repeat(300) + "/object"))) {
      assertThatThrownBy(() -> write(storage, tooLong, "x", WritePrecondition.none()))
          .as(tooLong.value()).isInstanceOf(BadRequestException.class)
          .hasMessageContaining("at most 255 bytes");
      assertThatThrownBy(() -> storage.stat(tooLong)).isInstanceOf(BadRequestException.class);
      assertThatThrownBy(() -> storage.read(tooLong, 0, -1))
          .isInstanceOf(BadRequestException.class);
      assertThatThrownBy(() -> storage.list(tooLong, Optional.empty(), 10))
          .isInstanceOf(BadRequestException.class);
    }
    try (Stream<Path> files = Files.walk(root)) {
      assertThat(files.filter(Files::isRegularFile).map(root::relativize).map(Path::toString))
          .containsExactly("r1/" + "n".repeat(255));
    }
  }

  private static StoredObjectInfo write(LocalBucketStorage storage, StoragePath key, String text,
      WritePrecondition precondition) {
    return storage.write(key, stream(text), text.length(), precondition);
  }

  private static List<String> keys(List<StoredObjectInfo> objects) {
    return objects.stream().map(object -> object.key().value()).toList();
  }

  private static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }
}
