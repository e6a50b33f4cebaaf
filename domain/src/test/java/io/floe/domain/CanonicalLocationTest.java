package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalLocationTest {

  @Test
  void objectStoreLocationsSplitIntoSchemeBucketAndPath() {
    CanonicalLocation location = CanonicalLocation.parse("s3://lake/org/ns_1/t-2/data");
    assertThat(location.scheme()).isEqualTo("s3");
    assertThat(location.authority()).isEqualTo("lake");
    assertThat(location.path()).isEqualTo(new StoragePath("org/ns_1/t-2/data"));
    assertThat(location).hasToString("s3://lake/org/ns_1/t-2/data");
    assertThat(CanonicalLocation.parse("gs://b")).hasToString("gs://b");
  }

  @Test
  void localFilesHaveThreeSpellingsOfOneLocation() {
    CanonicalLocation expected = CanonicalLocation.parse("file:///srv/floe/t");
    assertThat(CanonicalLocation.parse("file:/srv/floe/t")).isEqualTo(expected);
    assertThat(CanonicalLocation.parse("/srv/floe/t")).isEqualTo(expected);
    assertThat(CanonicalLocation.parse("/srv/floe/t/")).isEqualTo(expected);
    assertThat(expected).hasToString("file:///srv/floe/t");
  }

  @Test
  void containmentIsSegmentWiseAndWithinOneBucket() {
    CanonicalLocation table = CanonicalLocation.parse("s3://lake/ns/t");
    assertThat(CanonicalLocation.parse("s3://lake/ns/t/data/f.parquet").isWithin(table)).isTrue();
    assertThat(table.isWithin(table)).isTrue();
    assertThat(CanonicalLocation.parse("s3://lake/ns/t2/f").isWithin(table)).isFalse();
    assertThat(CanonicalLocation.parse("s3://lake2/ns/t/f").isWithin(table)).isFalse();
    assertThat(CanonicalLocation.parse("gs://lake/ns/t/f").isWithin(table)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "file:///srv/t/%2e%2e/x", "file:///srv/t/%2E%2e/x", "file:///srv/t/%252e%252e/x",
      "file:///srv/t/..%2fx", "file:///srv/t/%c0%ae%c0%ae/x", "s3://b/t/%2F/x",
      "file:///srv/t/\uFF0E\uFF0E/x", "file:///srv/t/\uFF0Fx", "file:///srv/t/\u2025/x",
      "file:///srv/t/\uFE52/x", "file:///srv/t/..\\x", "file:///srv/t/x\\..\\..",
      "file:///srv/t/../x", "file:///srv/t/./x", "file:///srv/t//x", "file:///srv/t/x/..",
      "file:///srv/t/x.", "file:///srv/t/...", "file:///srv/t/x;v=1", "file:///srv/t/x?y",
      "file:///srv/t/x#y", "file:///srv/t/x y", "file:///srv/t/x\u0000", "file:///srv/t/x\n",
      "file:///srv/t/x\u200b", "file:///srv/t/x\u202e", "file:///srv/t/x\ud800",
      "file://host/srv/t", "file://localhost:1/srv/t", "file:srv/t", "FILE:///srv/t",
      "S3://b/t", "s3://user@b/t", "s3://b:9000/t", "s3:/b/t", "s3://b//t", "s3:///t",
      "://b/t", "srv/t", "", "s3://b/t/e\u0301"})
  void nonCanonicalLocationsAreRefused(String raw) {
    assertThatThrownBy(() -> CanonicalLocation.parse(raw))
        .isInstanceOf(NonCanonicalLocationException.class)
        .isInstanceOf(DomainException.class);
  }

  @Test
  void theRefusalSaysWhatIsWrongWithoutEchoingControlCharacters() {
    assertThatThrownBy(() -> CanonicalLocation.parse("file:///t/%2e%2e/x"))
        .hasMessageContaining("percent-encoded");
    assertThatThrownBy(() -> CanonicalLocation.parse("file:///t/x\u0001"))
        .hasMessageNotContaining("\u0001").hasMessageContaining("U+0001");
    assertThatThrownBy(() -> CanonicalLocation.parse("s3://b/t/../x"))
        .hasMessageContaining("'..' segment");
  }

  @Test
  void precomposedNonAsciiNamesAreCanonical() {
    assertThat(CanonicalLocation.parse("s3://b/caf\u00e9/t").path().value()).isEqualTo(
        "caf\u00e9/t");
  }

  @Test
  void overlongLocationsAreRefused() {
    assertThatThrownBy(() -> CanonicalLocation.parse("s3://b/" + "a".repeat(5000)))
        .hasMessageContaining("longer than");
  }
}
