package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.JooqOrgStore;
import io.floe.adapters.persistence.jooq.SealingKey;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bucket credentials at rest, as an operator meets them: sealed in the database under a key kept
 * apart from it, readable after a restart, refused with a clear message under the wrong key,
 * sealed when an earlier version left them in plain text, and moved to a new key either by a
 * start with the previous key or by {@code floe secrets rotate}.
 */
class SecretsAtRestTest {
  private static final String SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";
  private static final String ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE";
  private static final String KAFKA_PASSWORD = "kafka-user-password-at-rest";

  @Test
  void theDatabaseHoldsNoPlainSecretAndARestartReadsThemBack(@TempDir Path dataDir)
      throws Exception {
    ServerSettings settings = withAStaticBucket(TestSettings.defaults(dataDir).build());
    Path keyFile = dataDir.resolve("secret.key");
    assertThat(Files.getPosixFilePermissions(keyFile))
        .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    SealingKey key = SecretKeys.read(keyFile);

    withEmbeddedDatabase(dataDir, database -> {
      List<String> rows = columns(database.dsl().fetch(
          "select coalesce(credentials::text, ''), sealed_credentials from bucket_configs"));
      assertThat(rows).isNotEmpty().allSatisfy(value -> assertThat(value)
          .doesNotContain(SECRET).doesNotContain(ACCESS_KEY));
      assertThat(database.dsl().fetch("select sealed_credentials from bucket_configs")
          .getValues(0, String.class)).allSatisfy(sealed ->
              assertThat(sealed).startsWith("v1:" + key.id() + ":"));
    });

    try (FloeServer restarted = FloeServer.start(settings)) {
      ManagementApi.Reply lake = admin(restarted, settings).get("/orgs/my-org/buckets/lake");
      assertThat(lake.status()).isEqualTo(200);
      // The method lives inside the sealed value: reading it back means it was opened.
      assertThat(lake.body().path("auth").path("method").asText()).isEqualTo("static");
      assertThat(lake.body().path("auth").path("role_arn").asText())
          .isEqualTo("arn:aws:iam::123456789012:role/floe");
    }
  }

  @Test
  void aWrongKeyRefusesToStartAndSaysWhatToDo(@TempDir Path dataDir) throws Exception {
    ServerSettings settings = withAStaticBucket(TestSettings.defaults(dataDir).build());
    SealingKey right = SecretKeys.read(dataDir.resolve("secret.key"));
    Path wrongFile = dataDir.resolve("wrong.key");
    OwnerOnlyFiles.write(wrongFile, SealingKey.generate("test").encoded());
    SealingKey wrong = SecretKeys.read(wrongFile);

    assertThatThrownBy(() -> FloeServer.start(settings.withSecretKey(
        SecretKeySettings.file(wrongFile)))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot read the bucket credentials in the database")
        .hasMessageContaining("sealed with key " + right.id())
        .hasMessageContaining("its key is " + wrong.id())
        .hasMessageContaining("--secret-key-file")
        .hasMessageContaining("--previous-secret-key-file");

    // A lost key file is not silently replaced: the new key generated in its place is refused.
    Files.delete(dataDir.resolve("secret.key"));
    assertThatThrownBy(() -> FloeServer.start(settings))
        .hasMessageContaining("sealed with key " + right.id())
        .hasMessageContaining("generated on this start");
  }

  @Test
  void aStartWithThePreviousKeySealsEverythingWithTheNewOne(@TempDir Path dataDir)
      throws Exception {
    ServerSettings settings = withAStaticBucket(TestSettings.defaults(dataDir).build());
    Path oldFile = dataDir.resolve("secret.key");
    Path newFile = dataDir.resolve("new.key");
    OwnerOnlyFiles.write(newFile, SealingKey.generate("test").encoded());
    SealingKey newKey = SecretKeys.read(newFile);

    ServerSettings rotating = settings.withSecretKey(
        SecretKeySettings.file(newFile).withPrevious(oldFile));
    try (FloeServer server = FloeServer.start(rotating)) {
      assertThat(admin(server, settings).get("/orgs/my-org/buckets/lake").status())
          .isEqualTo(200);
    }
    withEmbeddedDatabase(dataDir, database -> {
      assertThat(database.dsl()
          .fetch("select sealed_credentials from bucket_configs").getValues(0, String.class))
          .allSatisfy(sealed -> assertThat(sealed).startsWith("v1:" + newKey.id() + ":"));
      assertThat(database.dsl()
          .fetch("select sealed_secret from webhook_subscriptions").getValues(0, String.class))
          .hasSize(2)
          .allSatisfy(sealed -> assertThat(sealed).startsWith("v1:" + newKey.id() + ":"));
      assertThat(database.dsl().fetch("select sealed_kafka_password from webhook_subscriptions "
          + "where sealed_kafka_password is not null").getValues(0, String.class))
          .hasSize(1)
          .allSatisfy(sealed -> assertThat(sealed).startsWith("v1:" + newKey.id() + ":")
              .doesNotContain(KAFKA_PASSWORD));
    });
    // From now on the new key alone opens them, and the old one opens nothing.
    try (FloeServer server = FloeServer.start(settings.withSecretKey(
        SecretKeySettings.file(newFile)))) {
      assertThat(admin(server, settings).get("/orgs/my-org/buckets/lake").body()
          .path("auth").path("method").asText()).isEqualTo("static");
    }
    assertThatThrownBy(() -> FloeServer.start(settings))
        .hasMessageContaining("sealed with key " + newKey.id());
  }

  @Test
  void floeSecretsRotateMovesEveryCredentialToANewKeyFile(@TempDir Path dataDir)
      throws Exception {
    ServerSettings settings = withAStaticBucket(TestSettings.defaults(dataDir).build());
    SealingKey oldKey = SecretKeys.read(dataDir.resolve("secret.key"));
    Path newFile = dataDir.resolve("rotated.key");

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = FloeCommand.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute("secrets", "rotate", "--data-dir", dataDir.toString(), "--new-key-file",
            newFile.toString());

    assertThat(exit).as(err.toString()).isZero();
    SealingKey newKey = SecretKeys.read(newFile);
    assertThat(Files.getPosixFilePermissions(newFile))
        .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    // my-org's default bucket and the static one.
    assertThat(out.toString()).contains("Sealed the credentials of 2 bucket configurations "
        + "with key " + newKey.id()).contains("--secret-key-file " + newFile);
    assertThatThrownBy(() -> FloeServer.start(settings))
        .hasMessageContaining("sealed with key " + newKey.id())
        .hasMessageContaining("its key is " + oldKey.id());
    try (FloeServer server = FloeServer.start(settings.withSecretKey(
        SecretKeySettings.file(newFile)))) {
      assertThat(admin(server, settings).get("/orgs/my-org/buckets/lake").body()
          .path("auth").path("method").asText()).isEqualTo("static");
    }
  }

  @Test
  void credentialsAnEarlierVersionStoredInPlainTextAreSealedOnFirstStart(@TempDir Path dataDir)
      throws Exception {
    UUID orgId = UUID.randomUUID();
    UUID bucketId = UUID.randomUUID();
    // The schema and the row as the version before sealing left them.
    try (EmbeddedPostgresServer postgres =
        EmbeddedPostgresServer.start(dataDir.resolve("postgres"))) {
      DatabaseSettings db = postgres.settings();
      Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
          .locations("classpath:db/migration").target("6").load().migrate();
      try (Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.user(),
          db.password())) {
        execute(connection, "insert into orgs (id, name, iceberg_enabled) values (?, 'legacy', "
            + "true)", orgId);
        execute(connection, "insert into bucket_configs (id, org_id, nickname, nickname_key, "
            + "platform, bucket, prefix, endpoint, region, path_style, credentials, is_default) "
            + "values (?, ?, 'lake', 'lake', 's3-compatible', 'lake-bucket', 'floe', "
            + "'http://127.0.0.1:9000', 'us-east-1', true, ?::jsonb, true)", bucketId, orgId,
            "{\"kind\": \"STATIC\", \"access_key_id\": \"" + ACCESS_KEY
                + "\", \"secret_access_key\": \"" + SECRET + "\"}");
      }
    }

    ServerSettings settings = TestSettings.defaults(dataDir).build();
    FloeServer.start(settings).close();

    SealingKey key = SecretKeys.read(dataDir.resolve("secret.key"));
    withEmbeddedDatabase(dataDir, database -> {
      List<String> row = columns(database.dsl().fetch("select coalesce(credentials::text, ''), "
          + "sealed_credentials from bucket_configs where id = ?", bucketId));
      assertThat(row.get(0)).isEmpty();
      assertThat(row.get(1)).startsWith("v1:" + key.id() + ":").doesNotContain(SECRET);
      BucketConfig bucket = new JooqOrgStore(database, new SecretCipher(key, List.of()))
          .bucket(bucketId).orElseThrow();
      assertThat(bucket.credentials())
          .isEqualTo(BucketCredentials.staticKeys(ACCESS_KEY, SECRET));
      assertThat(bucket).isEqualTo(new BucketConfig(bucketId, orgId, new CatalogName("lake"),
          StoragePlatform.S3_COMPATIBLE, "lake-bucket", new StoragePath("floe"),
          Optional.of("http://127.0.0.1:9000"), Optional.of("us-east-1"), true,
          BucketCredentials.staticKeys(ACCESS_KEY, SECRET), true));
    });
  }

  @Test
  @EnabledIfSystemProperty(named = ExternalDatabases.URL, matches = ".+")
  void anExternalDatabaseKeepsThemSealedAcrossARestart(@TempDir Path dataDir) throws Exception {
    DatabaseSettings external = ExternalDatabases.fresh();
    ServerSettings settings = withAStaticBucket(TestSettings.defaults(dataDir)
        .database(Optional.of(external)).build());
    try (Connection connection = DriverManager.getConnection(external.jdbcUrl(), external.user(),
        external.password()); ResultSet rows = connection.createStatement().executeQuery(
            "select coalesce(credentials::text, ''), sealed_credentials from bucket_configs")) {
      int count = 0;
      while (rows.next()) {
        count++;
        assertThat(rows.getString(1)).isEmpty();
        assertThat(rows.getString(2)).doesNotContain(SECRET).doesNotContain(ACCESS_KEY);
      }
      assertThat(count).isEqualTo(2);
    }
    try (FloeServer restarted = FloeServer.start(settings)) {
      assertThat(admin(restarted, settings).get("/orgs/my-org/buckets/lake").body()
          .path("auth").path("method").asText()).isEqualTo("static");
    }
    Path otherKey = dataDir.resolve("other.key");
    OwnerOnlyFiles.write(otherKey, SealingKey.generate("test").encoded());
    assertThatThrownBy(() -> FloeServer.start(settings.withSecretKey(
        SecretKeySettings.file(otherKey)))).hasMessageContaining("cannot read the bucket "
        + "credentials");
  }

  /** Runs a server once to add a bucket with static keys; returns its settings. */
  private static ServerSettings withAStaticBucket(ServerSettings settings) throws Exception {
    try (FloeServer server = FloeServer.start(settings)) {
      createStaticBucket(server, settings);
    }
    return settings;
  }

  private static void createStaticBucket(FloeServer server, ServerSettings settings)
      throws Exception {
    ManagementApi.Reply created = admin(server, settings).post("/orgs/my-org/buckets",
        Map.of("nickname", "lake", "platform", "s3-compatible", "name", "lake-bucket",
            "endpoint", "http://127.0.0.1:9000", "path_style", true,
            "auth", Map.of("method", "static", "access_key_id", ACCESS_KEY,
                "secret_access_key", SECRET,
                "role_arn", "arn:aws:iam::123456789012:role/floe")));
    assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
    // A webhook subscription's secret is sealed the same way, and follows the key.
    ManagementApi.Reply subscribed = admin(server, settings).post("/orgs/my-org/subscriptions",
        Map.of("url", "http://127.0.0.1:9/hook"));
    assertThat(subscribed.status()).as("%s", subscribed.body()).isEqualTo(201);
    // So is the password of a Kafka subscription's user.
    ManagementApi.Reply kafka = admin(server, settings).post("/orgs/my-org/subscriptions",
        Map.of("kafka", Map.of("bootstrap_servers", "127.0.0.1:9", "topic", "floe-events",
            "username", "floe", "password", KAFKA_PASSWORD)));
    assertThat(kafka.status()).as("%s", kafka.body()).isEqualTo(201);
  }

  private static ManagementApi admin(FloeServer server, ServerSettings settings)
      throws Exception {
    return new ManagementApi(server.port(), Files.readString(settings.adminTokenFile()).strip());
  }

  /** Opens the data directory's embedded database while no server runs on it. */
  private static void withEmbeddedDatabase(Path dataDir, Consumer<Database> work) {
    try (EmbeddedPostgresServer postgres =
            EmbeddedPostgresServer.start(dataDir.resolve("postgres"));
        Database database = Database.open(postgres.settings(), 2)) {
      work.accept(database);
    }
  }

  private static List<String> columns(org.jooq.Result<org.jooq.Record> rows) {
    List<String> values = new ArrayList<>();
    rows.forEach(row -> {
      for (int i = 0; i < row.size(); i++) {
        values.add(String.valueOf(row.get(i)));
      }
    });
    return values;
  }

  private static void execute(Connection connection, String sql, Object... values)
      throws Exception {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setObject(i + 1, values[i]);
      }
      statement.executeUpdate();
    }
  }
}
