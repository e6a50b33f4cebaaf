package io.floe.bootstrap;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a server's key for sealing secrets at rest comes from: a key file, or the key itself in
 * base64 (from {@code FLOE_SECRET_KEY}); with neither, {@code <data dir>/secret.key}, generated on
 * first start. A previous key, given while moving to a new one, only opens what it sealed.
 */
public record SecretKeySettings(Optional<Path> keyFile, Optional<String> key,
    Optional<Path> previousKeyFile) {

  public SecretKeySettings {
    Objects.requireNonNull(keyFile, "keyFile");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(previousKeyFile, "previousKeyFile");
    if (keyFile.isPresent() && key.isPresent()) {
      throw new IllegalArgumentException("give the secret key once: either a key file "
          + "(--secret-key-file, FLOE_SECRET_KEY_FILE) or FLOE_SECRET_KEY, not both");
    }
  }

  /** The key file in the data directory, generated when missing. */
  public static SecretKeySettings defaults() {
    return new SecretKeySettings(Optional.empty(), Optional.empty(), Optional.empty());
  }

  public static SecretKeySettings file(Path keyFile) {
    return new SecretKeySettings(Optional.of(keyFile), Optional.empty(), Optional.empty());
  }

  public SecretKeySettings withPrevious(Path previous) {
    return new SecretKeySettings(keyFile, key, Optional.of(previous));
  }

  @Override
  public String toString() {
    return "SecretKeySettings[" + keyFile.map(Path::toString)
        .orElse(key.isPresent() ? "FLOE_SECRET_KEY" : "default") + "]";
  }
}
