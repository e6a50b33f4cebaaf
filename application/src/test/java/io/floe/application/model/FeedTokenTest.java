package io.floe.application.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A continuation token comes back as the position it was made of; anything else is a 400. */
class FeedTokenTest {
  @Test
  void aTokenDecodesToThePositionItWasMadeOf() {
    FeedPosition position = new FeedPosition(812, 40, Instant.parse("2026-03-01T10:00:00.123Z"));
    assertThat(FeedToken.decode(FeedToken.encode(position))).isEqualTo(position);
    assertThat(FeedToken.decode(null)).isEqualTo(FeedPosition.START);
    assertThat(FeedToken.decode("")).isEqualTo(FeedPosition.START);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1:2", "-1:2:3", "1:2:3:4", "a:b:c", "1:2:999999999999999",
      "99999999999999999999:1:1", "1:2:3\u0000", " 1:2:3"})
  void anythingElseIsABadRequest(String text) {
    String token = Base64.getUrlEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> FeedToken.decode(token)).isInstanceOf(BadRequestException.class);
  }

  @Test
  void textThatIsNotBase64IsABadRequest() {
    assertThatThrownBy(() -> FeedToken.decode("%%%")).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> FeedToken.decode(Base64.getEncoder().encodeToString(
        new byte[] {(byte) 0xff, (byte) 0xfe}))).isInstanceOf(BadRequestException.class);
  }
}
