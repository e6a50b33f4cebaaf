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

  /** The shortest secret accepted from outside: the prefix and 128 bits as hex. */
  public static final int MIN_SECRET_LENGTH = PREFIX.length() + 32;

  /** Refuses a secret supplied from outside that is not of the token form or too short to be safe. */
  public static void requireWellFormed(String secret) {
    if (secret == null || !secret.startsWith(PREFIX) || secret.length() < MIN_SECRET_LENGTH
        || !secret.substring(PREFIX.length()).chars().allMatch(
            c -> Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
      throw new DomainException("a token must start with '" + PREFIX + "', be at least "
          + MIN_SECRET_LENGTH + " characters long and use only letters, digits, '_' and '-'");
    }
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
