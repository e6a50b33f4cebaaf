package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StorableTextTest {
  @Test
  void anyUnicodeTextIsStorable() {
    for (String text : new String[] {"", "plain", "tab\tand\nnewline", "émoji 🎉", "\u001f",
        "\uffff", "right-to-left \u202e"}) {
      assertThat(StorableText.problem(text)).as(text).isEmpty();
    }
  }

  @Test
  void nulAndUnpairedSurrogatesAreNot() {
    assertThat(StorableText.problem("a\u0000b")).contains("contains a NUL character (U+0000)");
    assertThat(StorableText.problem("x\ud800")).contains("contains an unpaired surrogate (U+D800)");
    assertThat(StorableText.problem("\udc00x")).contains("contains an unpaired surrogate (U+DC00)");
    assertThat(StorableText.problem("\ud83c\ud800")).isPresent();
    assertThatThrownBy(() -> StorableText.require("a\u0000", "property 'owner'"))
        .isInstanceOf(StorableText.InvalidTextException.class)
        .hasMessage("property 'owner' contains a NUL character (U+0000)");
  }

  @Test
  void decodedBytesAreStrictUtf8UnderTheSameRule() {
    assertThat(StorableText.fromUtf8("émoji 🎉".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "the token")).isEqualTo("émoji 🎉");
    assertThatThrownBy(() -> StorableText.fromUtf8(new byte[] {'a', 0}, "the token"))
        .isInstanceOf(StorableText.InvalidTextException.class)
        .hasMessage("the token contains a NUL character (U+0000)");
    // A byte that is no UTF-8, and a surrogate encoded on its own: refused, not replaced.
    for (byte[] bytes : new byte[][] {{(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}}) {
      assertThatThrownBy(() -> StorableText.fromUtf8(bytes, "the token"))
          .hasMessage("the token is not valid UTF-8");
    }
  }

  @Test
  void valueTypesThatHoldTextApplyTheRule() {
    assertThatThrownBy(() -> new MetadataValue.Text("a\u0000"))
        .isInstanceOf(DomainException.class);
    assertThatThrownBy(() -> new Namespace(java.util.UUID.randomUUID(),
        java.util.UUID.randomUUID(), new CatalogName("sales"), java.util.UUID.randomUUID(),
        StoragePath.root(), Map.of("owner", "x\u0000"), Optional.empty(), Map.of(),
        Visibility.PRIVATE, java.time.Instant.now(), java.time.Instant.now(), Optional.empty()))
        .hasMessageContaining("property 'owner' contains a NUL character");
  }
}
