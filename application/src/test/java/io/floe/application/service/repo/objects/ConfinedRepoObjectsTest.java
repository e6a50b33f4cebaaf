package io.floe.application.service.repo.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.PreconditionFailedException;
import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.StoredObjectListing;
import io.floe.application.model.WritePrecondition;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.domain.StoragePath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule of a repo's S3 session: its prefix, and nothing else. */
class ConfinedRepoObjectsTest {
  private static final String REPO = "k3x9_weather";

  private final Objects storage = new Objects();
  private final ConfinedRepoObjects session =
      new ConfinedRepoObjects(storage, new StoragePath(REPO), Access.READ_WRITE, "secret");

  @Test
  void objectsBeneathThePrefixAreWrittenReadListedAndDeleted() {
    put(REPO + "/repo", "v1");
    put(REPO + "/chunks/a", "aaaa");
    assertThat(read(REPO + "/repo")).isEqualTo("v1");
    assertThat(session.head(REPO + "/chunks/a")).map(StoredObjectInfo::size).contains(4L);
    assertThat(keys(session.list(REPO + "/", Optional.empty(), Optional.empty(), 100)))
        .containsExactly(REPO + "/chunks/a", REPO + "/repo");
    session.delete(List.of(REPO + "/chunks/a"));
    assertThat(session.head(REPO + "/chunks/a")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"other_repo/repo", "k3x9_weatherX/repo", "k3x9_weathe/repo", REPO,
      ".floe-local/locks/x", "repo"})
  void keysOutsideThePrefixAreRefusedForEveryOperation(String key) {
    storage.seed(key, "theirs");
    assertThatThrownBy(() -> session.head(key)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> session.get(key, 0, -1)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> session.put(key, bytes("mine"), 4, WritePrecondition.none()))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> session.delete(List.of(key))).isInstanceOf(ForbiddenException.class);
    assertThat(storage.content(key)).isEqualTo("theirs");
  }

  @ParameterizedTest
  @ValueSource(strings = {REPO + "/../other/repo", REPO + "//repo", REPO + "/./repo",
      REPO + "/a\\b", REPO + "/a\u0000b", REPO + "/", "/" + REPO + "/repo"})
  void keysThatAreNoCleanPathAreBadRequests(String key) {
    assertThatThrownBy(() -> session.put(key, bytes("x"), 1, WritePrecondition.none()))
        .isInstanceOf(BadRequestException.class);
    assertThat(storage.keys()).isEmpty();
  }

  @Test
  void aDeleteOfManyKeysDeletesNoneWhenOneIsOutside() {
    put(REPO + "/a", "a");
    storage.seed("other/b", "b");
    assertThatThrownBy(() -> session.delete(List.of(REPO + "/a", "other/b")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(storage.keys()).containsExactly(REPO + "/a", "other/b");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "k3x9", "k3x9_weatherX", "other/", "k3x9_weather/../other"})
  void listingsOutsideThePrefixAreRefused(String prefix) {
    storage.seed("k3x9_weatherX/secret", "s");
    assertThatThrownBy(() -> session.list(prefix, Optional.empty(), Optional.empty(), 10))
        .isInstanceOfAny(ForbiddenException.class, BadRequestException.class);
  }

  @Test
  void readOnlyCredentialsReadButNeverWrite() {
    put(REPO + "/repo", "v1");
    ConfinedRepoObjects reader = new ConfinedRepoObjects(storage, new StoragePath(REPO),
        Access.READ_ONLY, "secret");
    assertThat(reader.head(REPO + "/repo")).isPresent();
    assertThatThrownBy(() -> reader.put(REPO + "/repo", bytes("v2"), 2,
        WritePrecondition.none())).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> reader.delete(List.of(REPO + "/repo")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(storage.content(REPO + "/repo")).isEqualTo("v1");
  }

  @Test
  void aDelimiterFoldsKeysIntoCommonPrefixesAndPagesContinueAfterThem() {
    for (String key : List.of("chunks/a/0", "chunks/a/1", "chunks/b/0", "manifests/m1", "repo",
        "snapshots/s1", "snapshots/s2")) {
      put(REPO + "/" + key, key);
    }
    StoredObjectListing first = session.list(REPO + "/", Optional.of("/"), Optional.empty(), 2);
    assertThat(first.commonPrefixes()).containsExactly(REPO + "/chunks/", REPO + "/manifests/");
    assertThat(first.continueAfter()).contains(REPO + "/manifests/");
    StoredObjectListing second = session.list(REPO + "/", Optional.of("/"),
        first.continueAfter(), 2);
    assertThat(keys(second)).containsExactly(REPO + "/repo");
    assertThat(second.commonPrefixes()).containsExactly(REPO + "/snapshots/");
    assertThat(second.continueAfter()).isEmpty();

    StoredObjectListing chunks = session.list(REPO + "/chunks/", Optional.empty(),
        Optional.empty(), 2);
    assertThat(keys(chunks)).containsExactly(REPO + "/chunks/a/0", REPO + "/chunks/a/1");
    assertThat(keys(session.list(REPO + "/chunks/", Optional.empty(), chunks.continueAfter(),
        2))).containsExactly(REPO + "/chunks/b/0");
    assertThat(keys(session.list(REPO + "/snap", Optional.empty(), Optional.empty(), 10)))
        .containsExactly(REPO + "/snapshots/s1", REPO + "/snapshots/s2");
  }

  @Test
  void aConditionalWriteThatDoesNotHoldWritesNothing() {
    StoredObjectInfo first = put(REPO + "/repo", "v1");
    assertThatThrownBy(() -> session.put(REPO + "/repo", bytes("v2"), 2,
        new WritePrecondition(Optional.empty(), Optional.of("*"))))
        .isInstanceOf(PreconditionFailedException.class);
    assertThatThrownBy(() -> session.put(REPO + "/repo", bytes("v2"), 2,
        new WritePrecondition(Optional.of("\"not-it\""), Optional.empty())))
        .isInstanceOf(PreconditionFailedException.class);
    assertThat(read(REPO + "/repo")).isEqualTo("v1");
    session.put(REPO + "/repo", bytes("v2"), 2,
        new WritePrecondition(Optional.of("\"" + first.etag() + "\""), Optional.empty()));
    assertThat(read(REPO + "/repo")).isEqualTo("v2");
  }

  private StoredObjectInfo put(String key, String text) {
    return session.put(key, bytes(text), text.length(), WritePrecondition.none());
  }

  private String read(String key) {
    try (StoredObjectContent content = session.get(key, 0, -1).orElseThrow()) {
      return new String(content.stream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> keys(StoredObjectListing listing) {
    return listing.objects().stream().map(o -> o.key().value()).toList();
  }

  private static InputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Objects in memory, in key order; each write gets a new entity tag. RepoObjectsServiceTest
   * opens its sessions on them too.
   */
  static final class Objects implements StreamingBucketStorage {
    private final TreeMap<String, byte[]> data = new TreeMap<>();
    private final TreeMap<String, String> tags = new TreeMap<>();
    private int writes;

    void seed(String key, String text) {
      data.put(key, text.getBytes(StandardCharsets.UTF_8));
      tags.put(key, "t" + ++writes);
    }

    String content(String key) {
      return new String(data.get(key), StandardCharsets.UTF_8);
    }

    List<String> keys() {
      return new ArrayList<>(data.keySet());
    }

    @Override
    public Optional<StoredObjectInfo> stat(StoragePath key) {
      return Optional.ofNullable(data.get(key.value())).map(bytes -> new StoredObjectInfo(key,
          bytes.length, Instant.EPOCH, tags.get(key.value())));
    }

    @Override
    public Optional<StoredObjectContent> read(StoragePath key, long offset, long length) {
      return stat(key).map(info -> new StoredObjectContent(info, 0, info.size(),
          new ByteArrayInputStream(data.get(key.value()))));
    }

    @Override
    public StoredObjectInfo write(StoragePath key, InputStream in, long length,
        WritePrecondition precondition) {
      if (!precondition.holdsFor(stat(key).map(StoredObjectInfo::etag))) {
        throw new PreconditionFailedException("no");
      }
      try {
        data.put(key.value(), in.readNBytes((int) length));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      tags.put(key.value(), "t" + ++writes);
      return stat(key).orElseThrow();
    }

    @Override
    public List<StoredObjectInfo> list(StoragePath prefix, Optional<String> startAfter,
        int limit) {
      return data.keySet().stream()
          .filter(key -> new StoragePath(key).isWithin(prefix))
          .filter(key -> startAfter.map(after -> key.compareTo(after) > 0).orElse(true))
          .limit(limit).map(key -> stat(new StoragePath(key)).orElseThrow()).toList();
    }

    @Override
    public void delete(StoragePath key) {
      data.remove(key.value());
      tags.remove(key.value());
    }
  }
}
