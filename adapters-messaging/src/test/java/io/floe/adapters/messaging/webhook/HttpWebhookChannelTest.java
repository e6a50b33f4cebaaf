package io.floe.adapters.messaging.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.SubscriptionTarget;
import io.floe.application.port.out.DeliveryChannel;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook channel against receivers on loopback: a 2xx acknowledges, another status or a
 * redirect does not, and a receiver that accepts the connection and never answers is given up
 * on within the attempt's one bound.
 */
class HttpWebhookChannelTest {
  private static final Duration ATTEMPT = Duration.ofMillis(800);
  private final ServerSocket server;
  private final List<Socket> accepted = new ArrayList<>();
  private final HttpWebhookChannel channel =
      new HttpWebhookChannel(Duration.ofSeconds(3), ATTEMPT);

  HttpWebhookChannelTest() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void close() throws IOException {
    server.close();
    for (Socket socket : accepted) {
      socket.close();
    }
  }

  private SubscriptionTarget.Webhook target() {
    return new SubscriptionTarget.Webhook(
        URI.create("http://127.0.0.1:" + server.getLocalPort() + "/hook"));
  }

  private static DeliveryChannel.Message message() {
    return new DeliveryChannel.Message("id-1", "org/sales/orders",
        Map.of("webhook-id", "id-1"), "{}".getBytes(StandardCharsets.UTF_8));
  }

  /** Accepts connections and answers each with {@code status}, or never when it is null. */
  private void receive(Integer status) {
    Thread thread = new Thread(() -> {
      try {
        while (true) {
          Socket socket = server.accept();
          synchronized (accepted) {
            accepted.add(socket);
          }
          if (status != null) {
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 " + status + " X\r\nContent-Length: 0\r\nLocation: "
                + "http://example.com/\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
          }
        }
      } catch (IOException e) {
        // the test is over
      }
    });
    thread.setDaemon(true);
    thread.start();
  }

  @Test
  void aReceiverThatNeverAnswersIsGivenUpOnWithinTheAttemptTimeout() {
    receive(null);
    long started = System.nanoTime();

    DeliveryChannel.Outcome outcome = channel.deliver(target(), Optional.empty(), message());

    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(outcome.delivered()).isFalse();
    assertThat(outcome.status()).isEmpty();
    assertThat(outcome.error()).contains("the receiver did not answer in time");
    assertThat(took).isGreaterThanOrEqualTo(ATTEMPT.minusMillis(50))
        .isLessThan(ATTEMPT.plusSeconds(2));
  }

  @Test
  void aTwoHundredAcknowledgesAndARedirectDoesNot() {
    receive(204);
    assertThat(channel.deliver(target(), Optional.empty(), message()))
        .isEqualTo(DeliveryChannel.Outcome.acknowledged(Optional.of(204)));
  }

  @Test
  void aRedirectIsAFailedAttemptNeverFollowed() {
    receive(307);
    assertThat(channel.deliver(target(), Optional.empty(), message()))
        .isEqualTo(DeliveryChannel.Outcome.failed(Optional.of(307),
            "the receiver answered 307"));
  }
}
