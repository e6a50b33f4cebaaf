package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableNameTest {

  @ParameterizedTest
  @ValueSource(strings = {"observations", "weather.daily", "Temp °C", "a\"b", "表", "o'brien"})
  void acceptsPrintableUnicode(String name) {
    assertThat(new TableName(name).value()).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", "a/b", "a\\b", "new\nline", " padded", "padded "})
  void refusesNamesThatCouldSteerPathsOrBreakProtocols(String name) {
    assertThatThrownBy(() -> new TableName(name)).isInstanceOf(InvalidNameException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"..hidden..", "Temp °C", "表", "a.b"})
  void pathSegmentsContainOnlySafeCharacters(String name) {
    assertThat(new TableName(name).pathSegment()).matches("[A-Za-z0-9_-]+");
  }
}
