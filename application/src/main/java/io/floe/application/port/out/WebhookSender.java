package io.floe.application.port.out;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * Posts one webhook request and says how the receiver answered. Every implementation follows no
 * redirect, bounds the time to connect and to answer, and reads at most a bounded part of the
 * answer's body.
 */
public interface WebhookSender {
  /** How a receiver answered: its status, or why there was none. */
  record Response(Optional<Integer> status, Optional<String> error) {
    public boolean acknowledged() {
      return status.filter(code -> code >= 200 && code < 300).isPresent();
    }
  }

  Response post(URI url, Map<String, String> headers, byte[] body);
}
