package io.floe.adapters.storage.local;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.storage.StorageAdapters;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata FileIO of a local bucket, as the server opens it: files land 0640 in directories
 * 0750, and no location reaches outside the bucket's directory, neither by spelling nor through a
 * symbolic link.
 */
class LocalFileIOTest {
  @TempDir
  Path base;
  private Path bucketDir;
  private Path outside;
  private String table;
  private StorageAdapters adapters;
  private FileIO io;

  @BeforeEach
  void open() throws IOException {
    bucketDir = base.resolve("buckets/org-1");
    outside = Files.createDirectories(base.resolve("outside"));
    Files.createDirectories(bucketDir);
    adapters = new StorageAdapters();
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(),
        new CatalogName("default"), StoragePlatform.LOCAL, bucketDir.toString(),
        StoragePath.root(), Optional.empty(), Optional.empty(), false, BucketCredentials.none(),
        true);
    io = adapters.fileIo(bucket);
    table = bucket.uriOf(new StoragePath("ab12cd34_sales/orders-0f"));
  }

  @AfterEach
  void close() {
    adapters.close();
  }

  @Test
  void aLocationWithANameLongerThanTheFileSystemTakesIsRefusedAsTheClientsError() {
    String tooLong = table + "/data/" + "x".repeat(256) + ".parquet";
    assertThatThrownBy(() -> write(tooLong, "{}"))
        .isInstanceOf(org.apache.iceberg.exceptions.BadRequestException.class)
        .hasMessageContaining("at most 255 bytes");
    assertThatThrownBy(() -> io.newInputFile(tooLong).getLength())
        .isInstanceOf(org.apache.iceberg.exceptions.BadRequestException.class);
    assertThat(bucketDir.resolve("ab12cd34_sales")).doesNotExist();
  }

  @Test
  void writtenFilesAreReadableByOwnerAndGroupOnlyAndReadBack() throws IOException {
    write(table + "/metadata/00000-a.metadata.json", "{}");
    Path file = bucketDir.resolve("ab12cd34_sales/orders-0f/metadata/00000-a.metadata.json");
    assertThat(Files.readString(file)).isEqualTo("{}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-r-----");
    for (Path dir = file.getParent(); !dir.equals(bucketDir); dir = dir.getParent()) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
          .as(dir.toString()).isEqualTo("rwxr-x---");
    }
    assertThat(io.newInputFile(table + "/metadata/00000-a.metadata.json").getLength())
        .isEqualTo(2);
    assertThatThrownBy(() -> write(table + "/metadata/00000-a.metadata.json", "again"))
        .isInstanceOf(org.apache.iceberg.exceptions.AlreadyExistsException.class);
  }

  @Test
  void aLinkInsideTheBucketToADirectoryOutsideIsRefused() throws IOException {
    Path tableDir = Files.createDirectories(bucketDir.resolve("ab12cd34_sales/orders-0f"));
    Files.createSymbolicLink(tableDir.resolve("metadata"), outside);
    Files.writeString(outside.resolve("secret.json"), "{\"secret\":true}");

    assertThatThrownBy(() -> write(table + "/metadata/00001-b.metadata.json", "{}"))
        .isInstanceOf(RefusedLocationException.class).hasMessageNotContaining(outside.toString());
    assertThatThrownBy(() -> io.newInputFile(table + "/metadata/secret.json").newStream())
        .isInstanceOf(RefusedLocationException.class);
    try (var listed = Files.list(outside)) {
      assertThat(listed.map(p -> p.getFileName().toString())).containsExactly("secret.json");
    }
  }

  @Test
  void aDanglingLinkIsNeverWrittenThrough() throws IOException {
    Path tableDir = Files.createDirectories(bucketDir.resolve("ab12cd34_sales/orders-0f"));
    Files.createSymbolicLink(tableDir.resolve("00000-c.metadata.json"),
        outside.resolve("created-through-a-link"));
    assertThatThrownBy(() -> write(table + "/00000-c.metadata.json", "{}"))
        .isInstanceOf(RefusedLocationException.class);
    assertThat(outside.resolve("created-through-a-link")).doesNotExist();
  }

  @Test
  void locationsThatAreNotCanonicalOrNotInTheBucketAreRefusedBeforeAnyFileIsTouched() {
    for (String location : new String[] {
        table + "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside/x",
        table + "/../../../../outside/x",
        "file://localhost" + outside + "/x",
        outside.toUri() + "x",
        "file://" + base + "/buckets/org-2/x",
        "file://" + bucketDir,
        "s3://bucket/x"}) {
      assertThatThrownBy(() -> write(location, "x")).as(location)
          .isInstanceOf(RefusedLocationException.class);
    }
    assertThat(outside).isEmptyDirectory();
    assertThat(base.resolve("buckets/org-2")).doesNotExist();
  }

  private void write(String location, String text) throws IOException {
    try (PositionOutputStream out = io.newOutputFile(location).create()) {
      out.write(text.getBytes(UTF_8));
      assertThat(out.getPos()).isEqualTo(text.length());
    }
  }
}
