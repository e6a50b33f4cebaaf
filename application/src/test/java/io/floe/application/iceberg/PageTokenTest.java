package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

class PageTokenTest {

  @Test
  void tokensRoundTripAnyName() {
    for (String name : new String[] {"a", "weather.daily", "表 ü", "x/y=z"}) {
      assertThat(PageToken.decode(PageToken.encode(name))).contains(name);
    }
    assertThat(PageToken.decode(null)).isEmpty();
    assertThat(PageToken.decode("")).isEmpty();
  }

  @Test
  void aMalformedTokenIsTheClientsMistake() {
    assertThatThrownBy(() -> PageToken.decode("%%%")).isInstanceOf(BadRequestException.class);
  }

  @Test
  void aTokenThatDecodesToTextFloeCannotKeepIsRefused() {
    // "AA" is a NUL, "_w" a byte that is no UTF-8, "7aCA" a surrogate's encoding (CESU-8).
    assertThatThrownBy(() -> PageToken.decode("AA")).isInstanceOf(BadRequestException.class)
        .hasMessage("Invalid page token: the name it stands for contains a NUL character "
            + "(U+0000)");
    assertThatThrownBy(() -> PageToken.decode("_w")).isInstanceOf(BadRequestException.class)
        .hasMessageContaining("is not valid UTF-8");
    assertThatThrownBy(() -> PageToken.decode("7aCA")).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> PageToken.decode(PageToken.encode("a\u0000b")))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void pagesAreBoundedAndFetchOneExtraRowToSeeIfMoreFollow() {
    assertThat(PageToken.fetchSize(10)).isEqualTo(11);
    assertThat(PageToken.fetchSize(1_000_000)).isEqualTo(PageToken.MAX_PAGE_SIZE + 1);
    assertThatThrownBy(() -> PageToken.fetchSize(0)).isInstanceOf(BadRequestException.class);
  }
}
