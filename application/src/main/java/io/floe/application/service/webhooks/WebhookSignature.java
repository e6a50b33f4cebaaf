package io.floe.application.service.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signatures as the Standard Webhooks specification defines them: HMAC-SHA256, keyed with the
 * subscription's secret ({@code whsec_} and the key in base64), over
 * {@code <webhook-id>.<webhook-timestamp>.<body>}; the header {@code webhook-signature} carries
 * {@code v1,<signature in base64>}. The receiver recomputes it, and rejects timestamps too far
 * from its own clock to stop replays.
 */
public final class WebhookSignature {
  public static final String PREFIX = "whsec_";
  static final int KEY_BYTES = 32;

  private WebhookSignature() {}

  /** A new secret from {@code key}, {@link #KEY_BYTES} random bytes. */
  public static String secret(byte[] key) {
    return PREFIX + Base64.getEncoder().encodeToString(key);
  }

  /** The {@code webhook-signature} header's value for one message. */
  public static String sign(String secret, String id, long timestampSeconds, byte[] body) {
    return "v1," + Base64.getEncoder().encodeToString(mac(secret, id, timestampSeconds, body));
  }

  /** Whether {@code header} holds a valid signature of the message (any of its signatures). */
  public static boolean verify(String secret, String id, long timestampSeconds, byte[] body,
      String header) {
    byte[] expected = mac(secret, id, timestampSeconds, body);
    for (String signature : header.split(" ")) {
      if (signature.startsWith("v1,")) {
        byte[] given;
        try {
          given = Base64.getDecoder().decode(signature.substring(3));
        } catch (IllegalArgumentException e) {
          continue;
        }
        if (MessageDigest.isEqual(expected, given)) {
          return true;
        }
      }
    }
    return false;
  }

  private static byte[] mac(String secret, String id, long timestampSeconds, byte[] body) {
    if (!secret.startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a webhook secret");
    }
    byte[] key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
