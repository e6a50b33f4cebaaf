package io.floe.adapters.icechunk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.floe.adapters.icechunk.format.Envelope;
import io.floe.adapters.icechunk.format.IcechunkFormatException;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repository written by Python Icechunk, then each of its metadata files damaged in many ways
 * (bytes of the FlatBuffer changed and the file sealed again, or the file cut short): reading
 * everything through Floe raises only this module's exceptions, and the message names the file.
 */
class DamagedRepositoryTest {
  private static final StoragePath PREFIX = new StoragePath("repos/damaged");
  private static final int DAMAGES_PER_FILE = 30;

  @TempDir
  Path dir;

  @BeforeAll
  static void requirePython() {
    assumeFalse(PythonIcechunk.skipRequested(), "floe.skipPythonInterop=true");
    PythonIcechunk.requireAvailable();
  }

  @Test
  void damagedMetadataFilesRaiseOnlyTypedExceptionsNamingTheFile() throws IOException {
    Path repoDir = dir.resolve(PREFIX.value());
    PythonIcechunk.run("build", repoDir.toString());
    BucketStorage storage = new LocalBucketStorage(dir);
    readEverything(storage);

    List<Path> files;
    try (Stream<Path> walk = Files.walk(repoDir)) {
      files = walk.filter(Files::isRegularFile)
          .filter(p -> !p.startsWith(repoDir.resolve("chunks"))
              && !p.startsWith(repoDir.resolve("overwritten")))
          .sorted().toList();
    }
    assertThat(files).anyMatch(p -> p.startsWith(repoDir.resolve("snapshots")))
        .anyMatch(p -> p.startsWith(repoDir.resolve("manifests")));
    Random random = new Random(7);
    for (Path file : files) {
      byte[] original = Files.readAllBytes(file);
      Envelope.Opened opened = Envelope.open(file.toString(), original, null);
      for (int i = 0; i < DAMAGES_PER_FILE; i++) {
        byte[] damaged;
        if (i % 10 == 0) {
          damaged = Arrays.copyOf(original, random.nextInt(original.length));
        } else {
          byte[] payload = opened.payload().clone();
          int changes = 1 + random.nextInt(3);
          for (int c = 0; c < changes; c++) {
            payload[random.nextInt(payload.length)] = (byte) random.nextInt(256);
          }
          damaged = Envelope.seal(opened.specVersion(), opened.fileType(), payload);
        }
        Files.write(file, damaged);
        try {
          readEverything(storage);
        } catch (IcechunkException e) {
          // Damage can also make a consistent but different repository (a node with another
          // path, a ref to a missing snapshot): errors about its content, not its files.
          assertThat(e.getMessage()).isNotBlank();
        } catch (IcechunkFormatException e) {
          assertThat(e.getMessage()).as("names the damaged object").contains(PREFIX.value());
        } catch (RuntimeException e) {
          fail("damaging " + repoDir.relativize(file) + " (round " + i + ") raised "
              + e.getClass().getName() + ": " + e.getMessage(), e);
        } finally {
          Files.write(file, original);
        }
      }
    }
  }

  /** Every read the adapter offers, over every branch and tag. */
  private static void readEverything(BucketStorage storage) {
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    repo.metadata();
    for (String branch : repo.branches().keySet()) {
      repo.log(Ref.branch(branch));
      readSession(repo.readonlySession(Ref.branch(branch)));
    }
    for (String tag : repo.tags().keySet()) {
      repo.log(Ref.tag(tag));
      readSession(repo.readonlySession(Ref.tag(tag)));
    }
  }

  private static void readSession(ReadSession session) {
    for (NodeSnapshot n : session.nodes()) {
      session.attributes(n.path());
      session.children(n.path());
      if (n.isArray()) {
        session.chunkRefs(n.path()).forEach((index, payload) -> session.chunk(n.path(), index));
      }
    }
  }
}
