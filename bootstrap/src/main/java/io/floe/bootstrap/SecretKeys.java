package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.SealingKey;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.adapters.persistence.jooq.UnreadableSecretException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the keys a server seals secrets with, as its settings name them, and generates the
 * default one on first start. Also turns a secret the server cannot open into advice for the
 * operator.
 */
final class SecretKeys {
  private static final Logger LOG = LoggerFactory.getLogger(SecretKeys.class);
  static final String DEFAULT_FILE = "secret.key";

  private SecretKeys() {}

  /**
   * The cipher a server starts with: the current key (the default one generated if missing), and
   * the previous one when given.
   */
  static SecretCipher cipher(SecretKeySettings settings, Path dataDir) {
    return new SecretCipher(current(settings, dataDir, true), previous(settings));
  }

  /** The key {@code settings} name; the default key file is generated only if asked to. */
  static SealingKey current(SecretKeySettings settings, Path dataDir, boolean generateIfMissing) {
    Path defaultFile = dataDir.resolve(DEFAULT_FILE);
    return settings.keyFile().map(SecretKeys::read)
        .or(() -> settings.key().map(key -> SealingKey.parse(key, SecretKeyOptions.KEY_VARIABLE)))
        .orElseGet(() -> generateIfMissing ? readOrGenerate(defaultFile) : read(defaultFile));
  }

  static List<SealingKey> previous(SecretKeySettings settings) {
    return settings.previousKeyFile().map(SecretKeys::read).stream().toList();
  }

  /** The key in {@code file}, which must exist. */
  static SealingKey read(Path file) {
    try {
      String text = Files.readString(file);
      if (OwnerOnlyFiles.readableByOthers(file)) {
        LOG.warn("the secret key file {} can be read by other users; make it private "
            + "(chmod 600)", file);
      }
      return SealingKey.parse(text, "the secret key file " + file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("the secret key file " + file + " does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the secret key file " + file, e);
    }
  }

  /**
   * The key in {@code file}, or a new one written there (mode 600, flushed to disk) before
   * anything is sealed with it.
   */
  static SealingKey readOrGenerate(Path file) {
    if (Files.exists(file)) {
      return read(file);
    }
    SealingKey generated = SealingKey.generate("the secret key file " + file
        + ", generated on this start");
    OwnerOnlyFiles.write(file, generated.encoded());
    LOG.info("generated the key that seals bucket credentials in the database: {} (key id {}); "
        + "keep it, and back it up apart from the database", file, generated.id());
    return generated;
  }

  /** What the operator should do about a secret the server cannot open. */
  static IllegalStateException refusal(UnreadableSecretException error, SecretCipher cipher) {
    Optional<String> keyId = Optional.of(error.keyId()).filter(id -> !id.isEmpty());
    boolean knownKey = keyId.filter(cipher::hasKey).isPresent();
    String advice = knownKey || keyId.isEmpty()
        ? "The row was changed outside Floe: restore it from a backup, or delete that bucket "
            + "configuration and add it again."
        : "Start Floe with the key that sealed it (--secret-key-file, FLOE_SECRET_KEY_FILE or "
            + "FLOE_SECRET_KEY); to move to a new key, give the old one as "
            + "--previous-secret-key-file, or run 'floe secrets rotate'.";
    return new IllegalStateException("cannot read the bucket credentials in the database: "
        + error.getMessage() + ". " + advice, error);
  }
}
