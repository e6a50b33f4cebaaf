package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.BucketCredentialSealing;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.SealingKey;
import io.floe.adapters.persistence.jooq.SecretCipher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code floe secrets ...}: the key that seals bucket credentials in the database. */
@Command(name = "secrets", mixinStandardHelpOptions = true,
    description = "Manage the key that seals bucket credentials in the database.",
    subcommands = SecretsCommand.Rotate.class)
final class SecretsCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Seals every bucket's credentials with a new key, in one transaction. */
  @Command(name = "rotate", mixinStandardHelpOptions = true, sortOptions = false,
      description = {
          "Seal every bucket's credentials with a new key, in one database",
          "transaction: either all are sealed with the new key or, on any failure,",
          "all stay as they were.",
          "",
          "Stop the server first (the embedded database allows one user). The",
          "current key is found as 'floe serve' finds it. A new key file that does",
          "not exist is created with a new random key (mode 600) before anything",
          "changes. Afterwards start the server with --secret-key-file set to the",
          "new file; the old key opens nothing any more.",
          "",
          "To rotate without stopping, start the server with the new key as",
          "--secret-key-file and the old one as --previous-secret-key-file instead."})
  static final class Rotate implements Callable<Integer> {
    @Mixin
    DataOptions data;

    @Mixin
    SecretKeyOptions secretKey;

    @Option(names = "--new-key-file", required = true, paramLabel = "FILE",
        description = "The new key: read if the file exists, else generated into it.")
    Path newKeyFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      ServerSettings settings = ServerSettings.defaults(data.dataDir)
          .withDatabase(data.database()).withSecretKey(secretKey.settings());
      SealingKey current = SecretKeys.current(settings.secretKey(), settings.dataDir(), false);
      SealingKey next = newKey();
      if (next.id().equals(current.id())) {
        throw new IllegalArgumentException(newKeyFile + " holds the key in use (" + current.id()
            + "); give a new one");
      }
      List<SealingKey> opening = new ArrayList<>(List.of(current));
      opening.addAll(SecretKeys.previous(settings.secretKey()));
      try (StartedServices started = new StartedServices()) {
        Database database = CatalogDatabase.open(settings, 2, started);
        BucketCredentialSealing.Outcome outcome =
            CatalogDatabase.sealCredentials(database, new SecretCipher(next, opening));
        spec.commandLine().getOut().printf("Sealed the credentials of %d bucket configurations "
                + "with key %s (%d had been in plain text).%n"
                + "Start Floe with --secret-key-file %s from now on; key %s opens nothing any "
                + "more.%n", outcome.resealed() + outcome.sealedFromPlainText(), next.id(),
            outcome.sealedFromPlainText(), newKeyFile, current.id());
        spec.commandLine().getOut().flush();
        return 0;
      }
    }

    private SealingKey newKey() {
      if (Files.exists(newKeyFile)) {
        return SecretKeys.read(newKeyFile);
      }
      SealingKey generated = SealingKey.generate("the secret key file " + newKeyFile);
      OwnerOnlyFiles.write(newKeyFile, generated.encoded());
      spec.commandLine().getOut().printf("Wrote a new key to %s (key id %s).%n", newKeyFile,
          generated.id());
      return generated;
    }
  }
}
