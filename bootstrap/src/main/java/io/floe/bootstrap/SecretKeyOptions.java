package io.floe.bootstrap;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The key that seals bucket credentials in the database. The key itself may come from the
 * environment ({@code FLOE_SECRET_KEY}) but never from the command line, where other users of the
 * host could read it.
 */
final class SecretKeyOptions {
  static final String KEY_VARIABLE = "FLOE_SECRET_KEY";

  @Option(names = "--secret-key-file", defaultValue = "${env:FLOE_SECRET_KEY_FILE}",
      paramLabel = "FILE",
      description = "File holding the key that seals bucket credentials in the database: 32 "
          + "random bytes in base64 (env FLOE_SECRET_KEY_FILE, or the key itself in "
          + KEY_VARIABLE + "; default: <data-dir>/" + SecretKeys.DEFAULT_FILE
          + ", generated on first start).")
  Path keyFile;

  @Option(names = "--previous-secret-key-file",
      defaultValue = "${env:FLOE_PREVIOUS_SECRET_KEY_FILE}", paramLabel = "FILE",
      description = "While moving to a new key: the key used until now. Credentials it sealed "
          + "are sealed again with the new key on start (env FLOE_PREVIOUS_SECRET_KEY_FILE).")
  Path previousKeyFile;

  SecretKeySettings settings() {
    return new SecretKeySettings(Optional.ofNullable(keyFile),
        Optional.ofNullable(System.getenv(KEY_VARIABLE)).filter(key -> !key.isBlank()),
        Optional.ofNullable(previousKeyFile));
  }
}
