package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CatalogNameTest {

  @ParameterizedTest
  @ValueSource(strings = {"my-tables", "obs_2024", "A1", "raw.obs", "x"})
  void acceptsPlainNames(String name) {
    assertThat(new CatalogName(name).value()).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-lead", ".hidden", "_x", "a/b", "a b", "..", "na\u0000me", "%2F",
      "caf\u00e9", "tab\tname"})
  void refusesNamesOutsideTheRules(String name) {
    assertThatThrownBy(() -> new CatalogName(name)).isInstanceOf(InvalidNameException.class);
  }

  @Test
  void refusesNamesLongerThanTheLimit() {
    assertThat(new CatalogName("a".repeat(CatalogName.MAX_LENGTH)).value()).hasSize(100);
    assertThatThrownBy(() -> new CatalogName("a".repeat(CatalogName.MAX_LENGTH + 1)))
        .hasMessageContaining("longer than 100");
  }

  @Test
  void comparesCaseInsensitivelyButKeepsCase() {
    CatalogName name = new CatalogName("My-Tables");
    assertThat(name.value()).isEqualTo("My-Tables");
    assertThat(name.key()).isEqualTo(new CatalogName("my-TABLES").key());
  }

  @Test
  void warnsAboutDotsOnly() {
    assertThat(new CatalogName("raw.obs").warning()).hasValueSatisfying(
        warning -> assertThat(warning).contains("namespace separator"));
    assertThat(new CatalogName("raw-obs").warning()).isEmpty();
  }

  @Test
  void errorMessagesDoNotEchoControlCharacters() {
    assertThatThrownBy(() -> new CatalogName("bad\u0007name"))
        .hasMessageContaining("bad\\u0007name");
  }
}
