package io.floe.application.service.repo.objects;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.CredentialVendor.VendedCredentials;
import io.floe.domain.BucketConfig;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
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
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * S3 credentials for one repo's prefix on a local bucket, which Floe's own S3 endpoint accepts:
 * what the arraylake client and Python icechunk sign their requests with, as they would with
 * credentials a cloud's STS vended. Nothing is stored: the access key id carries its grant (the
 * bucket, the prefix, read or read-write, the expiry, the principal it was issued to) under a MAC
 * made with a key only the servers hold, and the secret is a second MAC of the access key id. A
 * server therefore checks a request's signature with a secret it issued itself, and every server
 * given the same key accepts what any of them issued. A key id that was altered, or has expired,
 * opens nothing.
 */
public final class LocalRepoCredentials {
  /** Every access key id Floe issues starts with it. */
  static final String KEY_ID_PREFIX = "FLOE";
  private static final byte VERSION = 1;
  private static final int MAC_BYTES = 16;
  private static final int FIXED_BYTES = 1 + 1 + Long.BYTES + 16 + 16;
  /** What the longest access key id may carry: S3 keys are at most 1024 bytes. */
  private static final int MAX_PREFIX_BYTES = 1024;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** What a valid access key id grants. */
  public record Grant(UUID bucketId, StoragePath prefix, Access access, Instant expiresAt,
      UUID principalId) {}

  private final byte[] key;
  private final Clock clock;
  private final Duration lifetime;

  /**
   * {@code key} is secret material of at least 32 bytes that every server of the catalog shares
   * (derived from the key that seals bucket credentials).
   */
  public LocalRepoCredentials(byte[] key, Clock clock, Duration lifetime) {
    if (key.length < 32) {
      throw new IllegalArgumentException("the credential key must have at least 32 bytes");
    }
    this.key = key.clone();
    this.clock = clock;
    this.lifetime = lifetime;
  }

  /**
   * Credentials for {@code prefix} in the local {@code bucket}, as FileIO-style properties
   * ({@code s3.access-key-id}, {@code s3.secret-access-key}), lasting the configured lifetime.
   */
  public VendedCredentials issue(BucketConfig bucket, StoragePath prefix, Access access,
      UUID principalId) {
    Instant expiresAt = clock.instant().plus(lifetime);
    byte[] prefixBytes = prefix.value().getBytes(StandardCharsets.UTF_8);
    if (prefixBytes.length > MAX_PREFIX_BYTES) {
      throw new IllegalArgumentException("the prefix is too long for a credential");
    }
    ByteBuffer claims = ByteBuffer.allocate(FIXED_BYTES + prefixBytes.length);
    claims.put(VERSION).put((byte) access.ordinal()).putLong(expiresAt.getEpochSecond());
    putUuid(claims, bucket.id());
    putUuid(claims, principalId);
    claims.put(prefixBytes);
    byte[] body = claims.array();
    byte[] signed = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac("key-id", body), 0, signed, body.length, MAC_BYTES);
    String keyId = KEY_ID_PREFIX + ENCODER.encodeToString(signed);
    return new VendedCredentials(Map.of(
        "s3.access-key-id", keyId,
        "s3.secret-access-key", secretOf(keyId)), expiresAt);
  }

  /** What {@code accessKeyId} grants, if Floe issued it and it has not expired. */
  public Optional<Grant> open(String accessKeyId) {
    if (accessKeyId == null || !accessKeyId.startsWith(KEY_ID_PREFIX)
        || accessKeyId.length() > 2 * (FIXED_BYTES + MAX_PREFIX_BYTES + MAC_BYTES)) {
      return Optional.empty();
    }
    byte[] signed;
    try {
      signed = DECODER.decode(accessKeyId.substring(KEY_ID_PREFIX.length()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (signed.length < FIXED_BYTES + MAC_BYTES) {
      return Optional.empty();
    }
    byte[] body = Arrays.copyOf(signed, signed.length - MAC_BYTES);
    byte[] given = Arrays.copyOfRange(signed, body.length, signed.length);
    byte[] expected = Arrays.copyOf(mac("key-id", body), MAC_BYTES);
    if (!MessageDigest.isEqual(given, expected)) {
      return Optional.empty();
    }
    ByteBuffer claims = ByteBuffer.wrap(body);
    if (claims.get() != VERSION) {
      return Optional.empty();
    }
    int access = claims.get();
    Instant expiresAt = Instant.ofEpochSecond(claims.getLong());
    UUID bucketId = new UUID(claims.getLong(), claims.getLong());
    UUID principalId = new UUID(claims.getLong(), claims.getLong());
    byte[] prefix = new byte[claims.remaining()];
    claims.get(prefix);
    if (access < 0 || access >= Access.values().length || !clock.instant().isBefore(expiresAt)) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Grant(bucketId, new StoragePath(new String(prefix,
          StandardCharsets.UTF_8)), Access.values()[access], expiresAt, principalId));
    } catch (DomainException e) {
      return Optional.empty();
    }
  }

  /** The secret access key of an access key id Floe issued: it signs that key's requests. */
  public String secretOf(String accessKeyId) {
    return ENCODER.encodeToString(mac("secret", accessKeyId.getBytes(StandardCharsets.UTF_8)));
  }

  private byte[] mac(String purpose, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update(purpose.getBytes(StandardCharsets.UTF_8));
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
