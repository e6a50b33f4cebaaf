package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Local buckets are directories on the server's disk: only operators create or move them, only
 * beneath the roots the operator configured, never sharing, containing or inside another local
 * bucket (of any org, links followed), and what Floe writes in them is not world-readable.
 */
@FloeServerTest
class LocalBucketPlacementTest {
  @TempDir
  static Path directory;
  private static TestFloe floe;
  private TestFloe.Org org;
  private TestFloe.Org otherOrg;
  private ManagementApi orgAdmin;
  private ManagementApi operator;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void orgs() {
    org = floe.newOrg();
    otherOrg = floe.newOrg();
    orgAdmin = new ManagementApi(floe.server().port(), org.token());
    operator = new ManagementApi(floe.server().port(), floe.operators().token());
  }

  @Test
  void anOrgAdminWhoIsNotAnOperatorCreatesAndMovesNoLocalBucket() {
    Path theirs = floe.localBucketDirectory(otherOrg.warehouse());
    for (Path target : List.of(floe.localBucketDirectory("mine-" + org.warehouse()),
        Path.of("/etc/floe-" + org.warehouse()), theirs, theirs.resolve("inside"))) {
      ManagementApi.Reply refused = orgAdmin.post(buckets(org), local("lake", target));
      assertThat(refused.status()).as(target + ": " + refused.body()).isEqualTo(403);
      assertThat(refused.detail()).contains("operators");
      assertThat(target.resolve("inside")).doesNotExist();
    }
    assertThat(floe.localBucketDirectory("mine-" + org.warehouse())).doesNotExist();
    ManagementApi.Reply moved = orgAdmin.patch(buckets(org) + "/default",
        Map.of("name", theirs.resolve("inside").toString()));
    assertThat(moved.status()).as(moved.body().toString()).isEqualTo(403);
    ManagementApi.Reply reprefixed = orgAdmin.patch(buckets(org) + "/default",
        Map.of("prefix", "elsewhere"));
    assertThat(reprefixed.status()).isEqualTo(403);
    // Buckets that are not on the server's disk stay the org admins' business.
    assertThat(orgAdmin.post(buckets(org), Map.of("nickname", "s3-lake", "platform",
        "s3-compatible", "name", "lake", "endpoint", "http://127.0.0.1:9", "auth",
        Map.of("method", "none"))).status()).isEqualTo(201);
    assertThat(orgAdmin.get(buckets(org)).body()).hasSize(2);
  }

  @Test
  void anOperatorPlacesLocalBucketsOnlyBeneathTheConfiguredRoots() throws IOException {
    Path outsideRoots = Files.createDirectories(directory.resolve("elsewhere-" + org.warehouse()));
    Path link = floe.localBucketDirectory("link-" + org.warehouse());
    Files.createSymbolicLink(link, outsideRoots);
    for (Path target : List.of(outsideRoots, Path.of("/etc/floe-" + org.warehouse()),
        link, link.resolve("lake"), floe.directory().resolve("buckets"))) {
      ManagementApi.Reply refused = operator.post(buckets(operatorOrg()), local("x", target));
      assertThat(refused.status()).as(target + ": " + refused.body()).isEqualTo(403);
      assertThat(refused.detail()).contains("--local-bucket-root");
    }
    for (String spelling : List.of(floe.localBucketDirectory("a") + "/../b",
        floe.localBucketDirectory("%2e%2e") + "/b", floe.localBucketDirectory("a b").toString(),
        "relative/lake")) {
      ManagementApi.Reply refused = operator.post(buckets(operatorOrg()), Map.of("nickname", "x",
          "platform", "local", "name", spelling, "auth", Map.of("method", "none")));
      assertThat(refused.status()).as(spelling + ": " + refused.body()).isIn(400, 422);
    }
    assertThat(outsideRoots).isEmptyDirectory();

    Path lake = floe.localBucketDirectory("lake-" + org.warehouse());
    ManagementApi.Reply created = operator.post(buckets(operatorOrg()), local("lake-" + org
        .warehouse(), lake));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
    assertThat(operator.delete(buckets(operatorOrg()) + "/lake-" + org.warehouse()).status())
        .isEqualTo(204);
  }

  @Test
  void noTwoLocalBucketsShareContainOrLieInsideOneAnother() throws IOException {
    Path theirs = floe.localBucketDirectory(otherOrg.warehouse());
    Path lakes = floe.localBucketDirectory("lakes-" + org.warehouse());
    ManagementApi.Reply first = operator.post(buckets(operatorOrg()),
        local("first-" + org.warehouse(), lakes.resolve("a")));
    assertThat(first.status()).as(first.body().toString()).isEqualTo(201);
    Path sneaky = floe.localBucketDirectory("sneaky-" + org.warehouse());
    Files.createSymbolicLink(sneaky, theirs);

    for (Path target : List.of(theirs, theirs.resolve("inside"), theirs.resolve("a/b"),
        lakes, lakes.resolve("a"), lakes.resolve("a/b"), sneaky, sneaky.resolve("inside"))) {
      ManagementApi.Reply refused = operator.post(buckets(operatorOrg()), local("second",
          target));
      assertThat(refused.status()).as(target + ": " + refused.body()).isEqualTo(409);
      assertThat(refused.detail()).contains("another local bucket");
    }
    // Neither can a new org's default bucket, nor a bucket moved later.
    ManagementApi.Reply nested = operator.post("/orgs", Map.of("name", "nested-"
        + org.warehouse(), "default_bucket", local("default", theirs.resolve("inside"))));
    assertThat(nested.status()).as(nested.body().toString()).isEqualTo(409);
    assertThat(operator.get("/orgs/nested-" + org.warehouse()).status()).isEqualTo(404);
    ManagementApi.Reply moved = operator.patch(buckets(operatorOrg()) + "/first-"
        + org.warehouse(), Map.of("name", theirs.resolve("moved").toString()));
    assertThat(moved.status()).as(moved.body().toString()).isEqualTo(409);
    assertThat(theirs.resolve("inside")).doesNotExist();
    assertThat(theirs.resolve("moved")).doesNotExist();

    // A sibling that merely shares a name prefix is not inside.
    ManagementApi.Reply sibling = operator.post(buckets(operatorOrg()),
        local("sibling-" + org.warehouse(), lakes.resolveSibling(lakes.getFileName()
            + "-2")));
    assertThat(sibling.status()).as(sibling.body().toString()).isEqualTo(201);
  }

  @Test
  void whatFloeWritesOnALocalBucketIsNotWorldReadable() throws IOException {
    try (RESTCatalog catalog = floe.catalog(org, Map.of())) {
      catalog.createNamespace(Namespace.of("obs"));
      catalog.createTable(TableIdentifier.of("obs", "readings"),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
    }
    Path bucket = floe.localBucketDirectory(org.warehouse());
    try (Stream<Path> paths = Files.walk(bucket)) {
      List<Path> all = paths.toList();
      assertThat(all).anyMatch(path -> path.toString().endsWith(".metadata.json"));
      for (Path path : all) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
            .as(path.toString()).isEqualTo(Files.isDirectory(path) ? "rwxr-x---" : "rw-r-----");
      }
    }
  }

  @Test
  void rootsComeFromTheCommandLineAndNeverHoldTheDataDirectory() {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve).parseArgs("--data-dir", "/srv/floe", "--local-bucket-root",
        "/srv/lakes", "--local-bucket-root", "/mnt/lakes");
    assertThat(serve.localBucketRoots).containsExactly(Path.of("/srv/lakes"),
        Path.of("/mnt/lakes"));
    ServerSettings defaults = ServerSettings.defaults(Path.of("/srv/floe"));
    assertThat(defaults.localBucketRoots()).containsExactly(Path.of("/srv/floe/buckets"));
    for (Path bad : List.of(Path.of("/srv"), Path.of("/srv/floe"),
        Path.of("/srv/floe/postgres/base"))) {
      assertThatThrownBy(() -> TestSettings.from(defaults).localBucketRoots(List.of(bad)).build())
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private TestFloe.Org operatorOrg() {
    return floe.operators();
  }

  private static String buckets(TestFloe.Org org) {
    return "/orgs/" + org.warehouse() + "/buckets";
  }

  private static Map<String, Object> local(String nickname, Path directory) {
    Map<String, Object> body = new HashMap<>();
    body.put("nickname", nickname);
    body.put("platform", "local");
    body.put("name", directory.toString());
    body.put("auth", Map.of("method", "none"));
    return body;
  }
}
