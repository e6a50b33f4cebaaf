package io.floe.adapters.storage.local;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.storage.StorageAdapters;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * Whatever location the server's FileIO for a local bucket is asked to write, on a real
 * directory tree with links planted inside the bucket (to a directory outside, into another
 * org's bucket, dangling), nothing appears or changes outside the bucket's directory, and every
 * file written really lies inside it.
 */
class LocalFileIOPropertyTest {
  private static final List<String> NAMES = List.of("data", "metadata", "x");
  private static final List<String> LINKS = List.of("link-out", "link-other", "dangling");
  private static final List<String> HOSTILE = List.of("..", ".", "%2e%2e", "%2E%2e",
      "%252e%252e", "\uFF0E\uFF0E", "x.", "x;y", "x?y", "#", "/", "\\", "%2f");

  private static Path base;
  private static Path bucketDir;
  private static List<String> outsideBefore;
  private static StorageAdapters adapters;
  private static FileIO io;
  private static String table;

  @BeforeContainer
  static void plantLinks() throws IOException {
    base = Files.createTempDirectory("floe-local-fileio");
    bucketDir = Files.createDirectories(base.resolve("buckets/org-1"));
    Path otherOrg = Files.createDirectories(base.resolve("buckets/org-2/ns/t"));
    Files.writeString(otherOrg.resolve("00000-x.metadata.json"), "theirs");
    Path outside = Files.createDirectories(base.resolve("outside"));
    Path tableDir = Files.createDirectories(bucketDir.resolve("ns/t"));
    Files.createSymbolicLink(tableDir.resolve("link-out"), outside);
    Files.createSymbolicLink(tableDir.resolve("link-other"), otherOrg);
    Files.createSymbolicLink(tableDir.resolve("dangling"), outside.resolve("planted"));
    outsideBefore = outsideOfBucket();
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(),
        new CatalogName("default"), StoragePlatform.LOCAL, bucketDir.toString(),
        StoragePath.root(), Optional.empty(), Optional.empty(), false, BucketCredentials.none(),
        true);
    adapters = new StorageAdapters();
    io = adapters.fileIo(bucket);
    table = bucket.uriOf(new StoragePath("ns/t"));
  }

  @AfterContainer
  static void removeTree() throws IOException {
    adapters.close();
    try (Stream<Path> paths = Files.walk(base)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Provide
  Arbitrary<String> locations() {
    Arbitrary<String> step = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.of(NAMES)),
        Tuple.of(2, Arbitraries.of(LINKS)),
        Tuple.of(3, Arbitraries.of(HOSTILE))).map(piece -> "/" + piece);
    return step.list().ofMinSize(1).ofMaxSize(5)
        .map(steps -> table + String.join("", steps) + "/" + UUID.randomUUID() + ".json");
  }

  @Property(tries = 500)
  void nothingOutsideTheBucketIsEverWritten(@ForAll("locations") String location) {
    String outcome;
    try (PositionOutputStream out = io.newOutputFile(location).create()) {
      out.write("planted".getBytes(UTF_8));
      outcome = "written";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      outcome = "refused";
    }
    Statistics.label("outcome").collect(outcome);
    assertThat(outsideOfBucket()).as(location).isEqualTo(outsideBefore);
    if (outcome.equals("written")) {
      assertThat(realPathOf(location)).as(location).startsWith(realPath(bucketDir));
    }
    Statistics.label("outcome").coverage(coverage -> {
      coverage.check("written").percentage(p -> p > 5);
      coverage.check("refused").percentage(p -> p > 30);
    });
  }

  private static Path realPathOf(String location) {
    return realPath(Path.of(java.net.URI.create(location)));
  }

  private static Path realPath(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every file and directory under the base that is not in the bucket, with its content. */
  private static List<String> outsideOfBucket() {
    try (Stream<Path> paths = Files.walk(base)) {
      return paths.filter(path -> !path.startsWith(bucketDir))
          .map(path -> base.relativize(path) + (Files.isRegularFile(path) ? " " + read(path) : ""))
          .sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
