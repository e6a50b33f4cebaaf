package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StoragePathTest {

  @ParameterizedTest
  @ValueSource(strings = {"a//b", "a/../b", "./a", "a/", "/a", "a\\b", "a/\u0001"})
  void refusesPathsThatAreNotNormalized(String path) {
    assertThatThrownBy(() -> new StoragePath(path)).isInstanceOf(DomainException.class);
  }

  @Test
  void parseToleratesSurroundingSlashes() {
    assertThat(StoragePath.parse("/warehouse/floe/").value()).isEqualTo("warehouse/floe");
    assertThat(StoragePath.parse("").isRoot()).isTrue();
  }

  @Test
  void containmentIsSegmentWiseNotTextual() {
    StoragePath parent = new StoragePath("a/b");
    assertThat(new StoragePath("a/b/c").isWithin(parent)).isTrue();
    assertThat(new StoragePath("a/b").isWithin(parent)).isTrue();
    assertThat(new StoragePath("a/bc").isWithin(parent)).isFalse();
    assertThat(new StoragePath("a/bc").overlaps(parent)).isFalse();
    assertThat(parent.overlaps(new StoragePath("a"))).isTrue();
  }

  @Test
  void everythingIsWithinTheRoot() {
    assertThat(new StoragePath("x/y").isWithin(StoragePath.root())).isTrue();
  }

  @Test
  void aKeyIsAtMostS3sThousandAndTwentyFourBytes() {
    String segment = "a".repeat(200);
    String longest = String.join("/", segment, segment, segment, segment, segment) + "/"
        + "b".repeat(1024 - 5 * 201);
    assertThat(new StoragePath(longest).value()).hasSize(1024);
    assertThatThrownBy(() -> new StoragePath(longest + "c"))
        .isInstanceOf(DomainException.class).hasMessageContaining("at most 1024 bytes");
    // Bytes, not characters: 342 three-byte characters are 1026 bytes.
    assertThatThrownBy(() -> new StoragePath("\u20ac".repeat(342)))
        .isInstanceOf(DomainException.class).hasMessageContaining("at most 1024 bytes");
    assertThat(new StoragePath("\u20ac".repeat(341)).value()).hasSize(341);
  }
}
