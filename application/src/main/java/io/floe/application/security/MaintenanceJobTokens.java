package io.floe.application.security;

import io.floe.domain.Action;
import io.floe.domain.Grant;
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
 * The bearer tokens of maintenance jobs that run outside the server (a Spark job): a job reaches
 * the catalog over REST like any engine, as the scheduler's principal
 * ({@link MaintenanceSchedulerIdentity}), but only on the one table it maintains (write, which
 * implies read), only in that table's org, and only until the token expires. Nothing is stored:
 * the token carries its scope (org, namespace and table ids, the job, the expiry) under a MAC made
 * with a key every server of the catalog shares (derived from the key that seals bucket
 * credentials), so any replica accepts what another issued. An altered or expired token opens
 * nothing.
 */
public final class MaintenanceJobTokens {
  /** Every maintenance job token starts with it. */
  public static final String PREFIX = "fmj_";
  private static final byte VERSION = 1;
  private static final int MAC_BYTES = 32;
  private static final int CLAIM_BYTES = 1 + Long.BYTES + 3 * 16 + Long.BYTES;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** What a job's token allows: writing one table of one org, until {@code expiresAt}. */
  public record JobScope(UUID orgId, UUID namespaceId, UUID tableId, long jobId,
      Instant expiresAt) {
    /** The one grant the token's holder has. */
    Optional<Grant> grant(UUID principalId) {
      return Optional.of(new Grant(principalId, namespaceId, Optional.of(tableId), Action.WRITE));
    }
  }

  private final byte[] key;
  private final Clock clock;

  /** {@code key}: secret material of at least 32 bytes that every server of the catalog shares. */
  public MaintenanceJobTokens(byte[] key, Clock clock) {
    if (key.length < 32) {
      throw new IllegalArgumentException("the job token key must have at least 32 bytes");
    }
    this.key = key.clone();
    this.clock = clock;
  }

  /** A token for job {@code jobId} on one table, valid for {@code lifetime} from now. */
  public String issue(UUID orgId, UUID namespaceId, UUID tableId, long jobId, Duration lifetime) {
    Instant expiresAt = clock.instant().plus(lifetime);
    ByteBuffer claims = ByteBuffer.allocate(CLAIM_BYTES);
    claims.put(VERSION).putLong(expiresAt.getEpochSecond());
    putUuid(claims, orgId);
    putUuid(claims, namespaceId);
    putUuid(claims, tableId);
    claims.putLong(jobId);
    byte[] body = claims.array();
    byte[] signed = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac(body), 0, signed, body.length, MAC_BYTES);
    return PREFIX + ENCODER.encodeToString(signed);
  }

  /** What {@code token} allows, if a server of this catalog issued it and it has not expired. */
  public Optional<JobScope> open(String token) {
    if (token == null || !token.startsWith(PREFIX)
        || token.length() > PREFIX.length() + 2 * (CLAIM_BYTES + MAC_BYTES)) {
      return Optional.empty();
    }
    byte[] signed;
    try {
      signed = DECODER.decode(token.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (signed.length != CLAIM_BYTES + MAC_BYTES) {
      return Optional.empty();
    }
    byte[] body = Arrays.copyOf(signed, CLAIM_BYTES);
    byte[] given = Arrays.copyOfRange(signed, CLAIM_BYTES, signed.length);
    if (!MessageDigest.isEqual(given, mac(body))) {
      return Optional.empty();
    }
    ByteBuffer claims = ByteBuffer.wrap(body);
    if (claims.get() != VERSION) {
      return Optional.empty();
    }
    Instant expiresAt = Instant.ofEpochSecond(claims.getLong());
    UUID orgId = new UUID(claims.getLong(), claims.getLong());
    UUID namespaceId = new UUID(claims.getLong(), claims.getLong());
    UUID tableId = new UUID(claims.getLong(), claims.getLong());
    long jobId = claims.getLong();
    if (!clock.instant().isBefore(expiresAt)) {
      return Optional.empty();
    }
    return Optional.of(new JobScope(orgId, namespaceId, tableId, jobId, expiresAt));
  }

  /** The caller a valid token is: the scheduler's principal, limited to the token's scope. */
  public static Caller caller(JobScope scope) {
    Caller scheduler = new Caller(MaintenanceSchedulerIdentity.PRINCIPAL);
    return new Caller(scheduler.principal(), scheduler.identities(), Optional.of(scope));
  }

  private byte[] mac(byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update("floe maintenance job token".getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(message);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void putUuid(ByteBuffer buffer, UUID id) {
    buffer.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
  }
}
