package io.floe.adapters.persistence.jooq;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals secrets before they are stored and opens them when they are read, with AES-256-GCM from
 * the JDK: a fresh random 96-bit nonce for every value, and the value's owner (a row's id) as
 * associated data, so that a sealed value copied into another row fails to open. A sealed value
 * reads {@code v1:<key id>:<nonce>:<ciphertext and tag>} (base64): it names the key that sealed
 * it, so a server given the previous key too can open values sealed before a rotation. New values
 * are always sealed with the current key.
 */
public final class SecretCipher {
  private static final String FORMAT = "v1";
  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SealingKey current;
  private final Map<String, SealingKey> keys = new LinkedHashMap<>();

  /** Seals with {@code current}; opens what {@code current} or any of {@code previous} sealed. */
  public SecretCipher(SealingKey current, List<SealingKey> previous) {
    this.current = Objects.requireNonNull(current, "current");
    keys.put(current.id(), current);
    previous.forEach(key -> keys.putIfAbsent(key.id(), key));
  }

  public SealingKey currentKey() {
    return current;
  }

  /** Seals {@code plaintext} for the owner named by {@code boundTo}. */
  public String seal(String plaintext, String boundTo) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION);
      cipher.init(Cipher.ENCRYPT_MODE, current.secretKey(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
      return FORMAT + ":" + current.id() + ":" + base64.encodeToString(nonce) + ":"
          + base64.encodeToString(sealed);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available in this JDK", e);
    }
  }

  /** Opens a value {@link #seal} made for the same owner, with the key it names. */
  public String open(String sealed, String boundTo) {
    String[] parts = sealed.split(":", -1);
    if (parts.length != 4 || !parts[0].equals(FORMAT)) {
      throw new UnreadableSecretException("the secret of " + boundTo + " is not a sealed value",
          "");
    }
    String keyId = parts[1];
    SealingKey key = keys.get(keyId);
    if (key == null) {
      throw new UnreadableSecretException("the secret of " + boundTo + " was sealed with key "
          + keyId + ", which this server was not given (its key is " + current.id() + ", from "
          + current.source() + ")", keyId);
    }
    try {
      byte[] nonce = Base64.getDecoder().decode(parts[2]);
      byte[] ciphertext = Base64.getDecoder().decode(parts[3]);
      if (nonce.length != NONCE_BYTES) {
        throw new AEADBadTagException("a nonce of " + nonce.length + " bytes");
      }
      Cipher cipher = Cipher.getInstance(TRANSFORMATION);
      cipher.init(Cipher.DECRYPT_MODE, key.secretKey(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
      return StandardCharsets.UTF_8.newDecoder()
          .decode(ByteBuffer.wrap(cipher.doFinal(ciphertext))).toString();
    } catch (AEADBadTagException | IllegalArgumentException e) {
      throw new UnreadableSecretException("the secret of " + boundTo + " fails authentication "
          + "with key " + keyId + ": it was altered or copied from another row", keyId);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new UnreadableSecretException("the secret of " + boundTo + " is not text", keyId);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available in this JDK", e);
    }
  }

  /** Whether this cipher holds the key with that id, current or previous. */
  public boolean hasKey(String keyId) {
    return keys.containsKey(keyId);
  }

  /** Whether {@code sealed} was sealed with the current key (else it needs sealing again). */
  public boolean isSealedWithCurrentKey(String sealed) {
    return sealed.startsWith(FORMAT + ":" + current.id() + ":");
  }
}
