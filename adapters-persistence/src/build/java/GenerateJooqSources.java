import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.jooq.codegen.GenerationTool;
import org.jooq.meta.jaxb.Configuration;
import org.jooq.meta.jaxb.Database;
import org.jooq.meta.jaxb.Generate;
import org.jooq.meta.jaxb.Generator;
import org.jooq.meta.jaxb.Jdbc;
import org.jooq.meta.jaxb.Target;

/**
 * Build step: migrates a throw-away embedded PostgreSQL with the project's Flyway migrations and
 * generates jOOQ classes from the result, so the generated code always matches the real schema.
 * Skips the work when the migrations are unchanged since the last generation.
 *
 * <p>Usage: {@code java GenerateJooqSources.java <migrations dir> <target dir>}
 */
public class GenerateJooqSources {
  /** Below the hand-written jOOQ adapters, which use it and are never used by it. */
  private static final String PACKAGE = "io.floe.adapters.persistence.jooq.schema";
  /**
   * Part of the digest, so that changed settings regenerate. Floe writes its joins explicitly;
   * to-many join paths would only add methods, and two of them (teams and their members, both
   * principals) have no unambiguous name.
   */
  private static final String SETTINGS = "records, java.time, no to-many join paths";

  public static void main(String[] args) throws Exception {
    Path migrations = Path.of(args[0]);
    Path target = Path.of(args[1]);
    Path stamp = target.resolve(".migrations.sha256");
    String digest = digestOf(migrations);
    if (Files.exists(stamp) && Files.readString(stamp).equals(digest)) {
      System.out.println("jOOQ sources are up to date with the migrations");
      return;
    }
    // What an earlier generation left, in whatever package it used, must not be compiled too.
    removeTree(target);
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
        .setPgBinaryResolver(GenerateJooqSources::bundle).start()) {
      Flyway.configure()
          .dataSource(postgres.getPostgresDatabase())
          .locations("filesystem:" + migrations.toAbsolutePath())
          .load()
          .migrate();
      GenerationTool.generate(new Configuration()
          .withJdbc(new Jdbc()
              .withDriver("org.postgresql.Driver")
              .withUrl(postgres.getJdbcUrl("postgres", "postgres"))
              .withUser("postgres"))
          .withGenerator(new Generator()
              .withDatabase(new Database()
                  .withName("org.jooq.meta.postgres.PostgresDatabase")
                  .withInputSchema("public")
                  .withOutputSchemaToDefault(true)
                  .withExcludes("flyway_schema_history"))
              .withGenerate(new Generate().withRecords(true).withPojos(false).withDaos(false)
                  .withJavaTimeTypes(true).withGeneratedAnnotation(false)
                  .withImplicitJoinPathsToMany(false))
              .withTarget(new Target().withPackageName(PACKAGE).withDirectory(target.toString()))));
    }
    Files.writeString(stamp, digest);
  }

  /**
   * zonky's bundle for this platform. Its macOS bundle is a universal binary, and the build
   * depends on the arm64 one only, so an Intel Mac uses that one too.
   */
  private static InputStream bundle(String system, String hardware) throws IOException {
    String os = system.toLowerCase(Locale.ROOT);
    String arch = hardware.equals("aarch64") || hardware.equals("arm64") ? "arm_64" : hardware;
    ClassLoader loader = GenerateJooqSources.class.getClassLoader();
    InputStream bundle = loader.getResourceAsStream("postgres-" + os + "-" + arch + ".txz");
    if (bundle == null && os.equals("darwin")) {
      bundle = loader.getResourceAsStream("postgres-darwin-arm_64.txz");
    }
    if (bundle == null) {
      throw new IOException("no PostgreSQL bundle for " + os + "-" + arch);
    }
    return bundle;
  }

  private static void removeTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> tree = Files.walk(directory)) {
      for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static String digestOf(Path migrations) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    List<Path> files;
    try (Stream<Path> listing = Files.list(migrations)) {
      files = listing.sorted().toList();
    }
    for (Path file : files) {
      sha.update(file.getFileName().toString().getBytes(StandardCharsets.UTF_8));
      sha.update(Files.readAllBytes(file));
    }
    sha.update(GenerateJooqSources.class.getName().getBytes(StandardCharsets.UTF_8));
    sha.update(SETTINGS.getBytes(StandardCharsets.UTF_8));
    sha.update(PACKAGE.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(sha.digest());
  }
}
