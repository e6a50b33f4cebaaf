package io.floe.application.service.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Signatures as the Standard Webhooks specification defines them, checked against the example
 * its reference libraries test with; and the back-off schedule retries follow.
 */
class WebhookSignatureTest {
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  private static final long TIMESTAMP = 1614265330;
  private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

  @Test
  void signsAsTheStandardWebhooksExampleAndVerifiesOnlyTheSameMessage() {
    String signature = WebhookSignature.sign(SECRET, ID, TIMESTAMP, BODY);
    assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    assertThat(WebhookSignature.verify(SECRET, ID, TIMESTAMP, BODY, signature)).isTrue();
    assertThat(WebhookSignature.verify(SECRET, ID, TIMESTAMP, BODY,
        "v1,bm90IGl0 " + signature)).isTrue();
    assertThat(WebhookSignature.verify(SECRET, ID, TIMESTAMP + 1, BODY, signature)).isFalse();
    assertThat(WebhookSignature.verify(SECRET, "msg_other", TIMESTAMP, BODY, signature))
        .isFalse();
    assertThat(WebhookSignature.verify(SECRET, ID, TIMESTAMP,
        "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
    assertThat(WebhookSignature.verify(WebhookSignature.secret(new byte[32]), ID, TIMESTAMP,
        BODY, signature)).isFalse();
    assertThat(WebhookSignature.verify(SECRET, ID, TIMESTAMP, BODY, "v1,%%%")).isFalse();
  }

  @Test
  void backOffDoublesFromTheFirstWaitUpToTheBoundAndPausesAtTheLimit() {
    RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(10), 5);
    assertThat(java.util.stream.IntStream.rangeClosed(1, 6).mapToObj(policy::backoff)
        .map(Duration::toSeconds)).containsExactly(1L, 2L, 4L, 8L, 10L, 10L);
    assertThat(policy.backoff(1_000_000)).isEqualTo(Duration.ofSeconds(10));
    assertThat(policy.pauses(4)).isFalse();
    assertThat(policy.pauses(5)).isTrue();
  }
}
