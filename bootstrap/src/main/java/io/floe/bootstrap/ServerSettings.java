package io.floe.bootstrap;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.rest.identity.OidcSettings;
import io.floe.domain.OrgName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a Floe server is started with. An empty {@code database} means the embedded
 * PostgreSQL under {@code <dataDir>/postgres}.
 */
public record ServerSettings(
    String bind,
    int port,
    Path dataDir,
    OrgName org,
    Optional<DatabaseSettings> database,
    Duration namespaceRecoveryPeriod,
    Duration idempotencyLifetime,
    Optional<String> bootstrapToken,
    Optional<OidcSettings> oidc,
    SecretKeySettings secretKey) {

  /**
   * Settings without an identity provider (only API tokens authenticate), sealing secrets with
   * the key in the data directory.
   */
  public ServerSettings(String bind, int port, Path dataDir, OrgName org,
      Optional<DatabaseSettings> database, Duration namespaceRecoveryPeriod,
      Duration idempotencyLifetime, Optional<String> bootstrapToken) {
    this(bind, port, dataDir, org, database, namespaceRecoveryPeriod, idempotencyLifetime,
        bootstrapToken, Optional.empty(), SecretKeySettings.defaults());
  }

  public ServerSettings {
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(bootstrapToken, "bootstrapToken");
    Objects.requireNonNull(oidc, "oidc");
    Objects.requireNonNull(secretKey, "secretKey");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    if (namespaceRecoveryPeriod.isNegative()) {
      throw new IllegalArgumentException("the namespace recovery period must not be negative");
    }
    if (idempotencyLifetime.isNegative() || idempotencyLifetime.isZero()) {
      throw new IllegalArgumentException("the idempotency-key lifetime must be positive");
    }
    dataDir = dataDir.toAbsolutePath().normalize();
  }

  public static ServerSettings defaults(Path dataDir) {
    return new ServerSettings("127.0.0.1", 8181, dataDir, new OrgName("my-org"), Optional.empty(),
        Duration.ofDays(7), Duration.ofMinutes(30), Optional.empty());
  }

  public ServerSettings withPort(int newPort) {
    return new ServerSettings(bind, newPort, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, secretKey);
  }

  public ServerSettings withDatabase(Optional<DatabaseSettings> newDatabase) {
    return new ServerSettings(bind, port, dataDir, org, newDatabase, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, secretKey);
  }

  public ServerSettings withNamespaceRecoveryPeriod(Duration period) {
    return new ServerSettings(bind, port, dataDir, org, database, period, idempotencyLifetime,
        bootstrapToken, oidc, secretKey);
  }

  public ServerSettings withOrg(OrgName newOrg) {
    return new ServerSettings(bind, port, dataDir, newOrg, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, secretKey);
  }

  public ServerSettings withBootstrapToken(String token) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, Optional.of(token), oidc, secretKey);
  }

  public ServerSettings withOidc(OidcSettings settings) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, Optional.of(settings), secretKey);
  }

  public ServerSettings withSecretKey(SecretKeySettings keys) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, keys);
  }

  public Path adminTokenFile() {
    return dataDir.resolve("admin.token");
  }

  public Path defaultBucketDir() {
    return dataDir.resolve("buckets").resolve("default");
  }

  public Path embeddedPostgresDir() {
    return dataDir.resolve("postgres");
  }
}
