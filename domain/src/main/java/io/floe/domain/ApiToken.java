package io.floe.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An API token as the server keeps it: only the SHA-256 of the secret is stored. Tokens start with
 * {@value #PREFIX} because the arraylake client accepts only such tokens (or JWTs).
 */
public record ApiToken(
    UUID id,
    UUID principalId,
    String secretHash,
    Instant createdAt,
    Optional<Instant> expiresAt,
    Optional<Instant> revokedAt) {

  public static final String PREFIX = "ema_";

  public ApiToken {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(secretHash, "secretHash");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(revokedAt, "revokedAt");
  }

  /** Whether the token may authenticate a request at {@code now}. */
  public boolean isUsableAt(Instant now) {
    return revokedAt.isEmpty() && expiresAt.map(now::isBefore).orElse(true);
  }

  /** Renders random bytes as a token secret the clients accept. */
  public static String secretFrom(byte[] randomBytes) {
    if (randomBytes.length < 32) {
      throw new DomainException("a token needs at least 256 bits of entropy");
    }
    return PREFIX + HexFormat.of().formatHex(randomBytes);
  }

  public static String hash(String secret) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
