package io.floe.application.service.table.planning;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The plan ids and plan tasks of server-side scan planning, as opaque strings that hold their
 * own state: whose plan it is (org, principal), of which table (its uuid), which scan (the
 * request with its snapshot pinned) and which part of it (a range of the scan's data manifests,
 * and how many tasks of the first one were already handed out), under a MAC made with a key
 * every server of the catalog shares (derived from the key that seals bucket credentials). Any
 * replica therefore continues a plan another one started, and nothing is written anywhere. A
 * token altered, expired, or presented by another principal or for another table opens nothing.
 */
public final class PlanTokens {
  /** Plan ids and plan tasks are told apart, so one is never accepted as the other. */
  public enum Kind { PLAN_ID, PLAN_TASK }

  /** What a token holds. {@code request} is the scan request as JSON, its snapshot pinned. */
  public record Claims(Kind kind, UUID orgId, UUID principalId, UUID tableUuid, int fromManifest,
      int toManifest, int skipTasks, String request) {}

  private static final byte VERSION = 1;
  private static final int MAC_BYTES = 32;
  private static final int FIXED_BYTES = 1 + 1 + Long.BYTES + 3 * 16 + 3 * Integer.BYTES;
  /** A token never holds more than this much of a request (a filter of thousands of terms). */
  static final int MAX_REQUEST_BYTES = 256 * 1024;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final byte[] key;
  private final Clock clock;
  private final Duration lifetime;

  /** {@code key}: secret material of at least 32 bytes that every server of the catalog shares. */
  public PlanTokens(byte[] key, Clock clock, Duration lifetime) {
    if (key.length < 32) {
      throw new IllegalArgumentException("the plan token key must have at least 32 bytes");
    }
    this.key = key.clone();
    this.clock = clock;
    this.lifetime = lifetime;
  }

  /** A token for {@code claims}, valid for the configured lifetime from now. */
  public String issue(Claims claims) {
    byte[] request = claims.request().getBytes(StandardCharsets.UTF_8);
    if (request.length > MAX_REQUEST_BYTES) {
      throw new IllegalArgumentException("the scan request is too large to plan in pages");
    }
    ByteBuffer body = ByteBuffer.allocate(FIXED_BYTES + request.length);
    body.put(VERSION).put((byte) claims.kind().ordinal())
        .putLong(clock.instant().plus(lifetime).getEpochSecond());
    putUuid(body, claims.orgId());
    putUuid(body, claims.principalId());
    putUuid(body, claims.tableUuid());
    body.putInt(claims.fromManifest()).putInt(claims.toManifest()).putInt(claims.skipTasks());
    body.put(request);
    byte[] signed = Arrays.copyOf(body.array(), body.capacity() + MAC_BYTES);
    System.arraycopy(mac(body.array()), 0, signed, body.capacity(), MAC_BYTES);
    return ENCODER.encodeToString(signed);
  }

  /**
   * Whether {@code token} has the shape of a token of this kind, whoever made it: a string that
   * is not one is the client's mistake (a 400), not an unknown plan.
   */
  public boolean wellFormed(String token, Kind kind) {
    if (token == null || token.length() > 2 * (FIXED_BYTES + MAX_REQUEST_BYTES + MAC_BYTES)
        || !token.matches("[A-Za-z0-9_-]+")) {
      return false;
    }
    byte[] signed;
    try {
      signed = DECODER.decode(token);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return signed.length >= FIXED_BYTES + MAC_BYTES && signed[0] == VERSION
        && signed[1] == kind.ordinal();
  }

  /** What {@code token} holds, if a server of this catalog issued it and it has not expired. */
  public Optional<Claims> open(String token, Kind kind) {
    if (token == null || token.length() > 2 * (FIXED_BYTES + MAX_REQUEST_BYTES + MAC_BYTES)) {
      return Optional.empty();
    }
    byte[] signed;
    try {
      signed = DECODER.decode(token);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (signed.length < FIXED_BYTES + MAC_BYTES) {
      return Optional.empty();
    }
    byte[] body = Arrays.copyOf(signed, signed.length - MAC_BYTES);
    byte[] given = Arrays.copyOfRange(signed, body.length, signed.length);
    if (!MessageDigest.isEqual(given, mac(body))) {
      return Optional.empty();
    }
    ByteBuffer claims = ByteBuffer.wrap(body);
    if (claims.get() != VERSION || claims.get() != kind.ordinal()) {
      return Optional.empty();
    }
    Instant expiresAt = Instant.ofEpochSecond(claims.getLong());
    if (!clock.instant().isBefore(expiresAt)) {
      return Optional.empty();
    }
    UUID org = getUuid(claims);
    UUID principal = getUuid(claims);
    UUID table = getUuid(claims);
    int from = claims.getInt();
    int to = claims.getInt();
    int skip = claims.getInt();
    String request = new String(body, FIXED_BYTES, body.length - FIXED_BYTES,
        StandardCharsets.UTF_8);
    return Optional.of(new Claims(kind, org, principal, table, from, to, skip, request));
  }

  private byte[] mac(byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update("floe scan plan token".getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(message);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void putUuid(ByteBuffer buffer, UUID id) {
    buffer.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
  }

  private static UUID getUuid(ByteBuffer buffer) {
    return new UUID(buffer.getLong(), buffer.getLong());
  }
}
