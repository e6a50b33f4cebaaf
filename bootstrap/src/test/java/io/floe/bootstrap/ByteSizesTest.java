package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.bootstrap.cli.Durations;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ByteSizesTest {
  private final ByteSizes sizes = new ByteSizes();

  @Test
  void sizesAreBytesOrBinaryUnits() {
    assertThat(sizes.convert("123")).isEqualTo(123L);
    assertThat(sizes.convert("64k")).isEqualTo(64L * 1024);
    assertThat(sizes.convert("16m")).isEqualTo(16L * 1024 * 1024);
    assertThat(sizes.convert(" 16MiB ")).isEqualTo(16L * 1024 * 1024);
    assertThat(sizes.convert("2G")).isEqualTo(2L * 1024 * 1024 * 1024);
  }

  @Test
  void nothingElseIsASize() {
    for (String value : new String[] {"", "0", "-1", "16 megabytes", "1.5g", "1t",
        "999999999999g"}) {
      assertThatThrownBy(() -> sizes.convert(value)).as(value)
          .isInstanceOf(CommandLine.TypeConversionException.class);
    }
  }

  @Test
  void durationsLongerThanAThousandYearsAreRefusedAsOptions() {
    assertThat(new Durations().convert("365000d")).hasDays(365_000);
    assertThatThrownBy(() -> new Durations().convert("365001d"))
        .isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageContaining("too long");
    assertThatThrownBy(() -> new Durations().convert("99999999999999999999d"))
        .isInstanceOf(CommandLine.TypeConversionException.class);
  }
}
