package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The repo management API over HTTP against a real Floe, whose soft-deleted names stay held for
 * the default recovery period (so that restore can be tried).
 */
@FloeServerTest(recoverable = true)
class RepoApiTest {
  private static final String INITIAL_SNAPSHOT = "1CECHNKREP0F1RSTCMT0";
  private static final AtomicInteger ORGS = new AtomicInteger();

  static TestFloe floe;

  String org;
  ManagementApi api;

  @BeforeAll
  static void startServer(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    TestFloe.Org created = floe.newOrg("repos-" + ORGS.incrementAndGet());
    org = created.warehouse();
    api = new ManagementApi(floe.port(), created.token());
  }

  @Test
  void pythonCommitsToARepoFloeCreatedAndFloeShowsItsHistory() {
    assumeFalse(PythonClient.skipRequested(), "Python interop skipped on request");
    JsonNode repo = createRepo("weather", "Reanalysis fields");
    JsonNode python = PythonClient.run("repo_commit.py",
        Path.of(URI.create(repo.get("location").asText())).toString());
    String snapshot = python.get("snapshot_id").asText();

    JsonNode refs = ok(api.get(repoPath("weather") + "/refs"));
    assertThat(refs.get("branches")).hasSize(1);
    assertThat(refs.at("/branches/0/name").asText()).isEqualTo("main");
    assertThat(refs.at("/branches/0/snapshot_id").asText()).isEqualTo(snapshot);
    assertThat(refs.at("/tags/0/name").asText()).isEqualTo("v1");
    assertThat(refs.at("/tags/0/snapshot_id").asText()).isEqualTo(snapshot);

    JsonNode log = ok(api.get(repoPath("weather") + "/log?ref=main")).get("commits");
    assertThat(messages(log)).isEqualTo(messages(python.get("log")))
        .containsExactly("python commit", "Repository initialized");
    JsonNode commit = log.get(0);
    assertThat(commit.get("id").asText()).isEqualTo(snapshot);
    assertThat(commit.get("parent_id").asText()).isEqualTo(INITIAL_SNAPSHOT);
    assertThat(commit.at("/metadata/author").asText()).isEqualTo("python");
    assertThat(commit.at("/metadata/run/id").asInt()).isEqualTo(7);
    assertThat(commit.at("/metadata/run/tags").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(commit.get("written_at").asText()).isNotBlank();
    assertThat(log.get(1).get("parent_id").isNull()).isTrue();

    JsonNode array = ok(api.get(repoPath("weather") + "/nodes?ref=v1&path=/climate/t2m"));
    assertThat(array.get("node_type").asText()).isEqualTo("array");
    assertThat(array.at("/attributes/units").asText()).isEqualTo("K");
    assertThat(array.at("/attributes/levels").toString()).isEqualTo("[1000,850]");
    assertThat(array.at("/zarr_metadata/data_type").asText()).isEqualTo("float32");
    JsonNode root = ok(api.get(repoPath("weather") + "/nodes?ref=" + snapshot));
    assertThat(root.at("/attributes/title").asText()).isEqualTo("written by Python");
    assertThat(root.get("children").toString()).isEqualTo("[\"/climate\"]");
    // Before Python's commit the repository had no nodes at all.
    assertThat(api.get(repoPath("weather") + "/nodes?ref=" + INITIAL_SNAPSHOT).status())
        .isEqualTo(404);
  }

  @Test
  void aCreatedRepoIsAnEmptyIcechunkRepositoryAtAClaimedPrefix() {
    JsonNode repo = createRepo("Obs-2024", "Station observations");
    assertThat(repo.get("bucket_nickname").asText()).isEqualTo("default");
    assertThat(repo.get("prefix").asText()).matches("[a-z0-9]{8}_Obs-2024");
    Path location = Path.of(URI.create(repo.get("location").asText()));
    assertThat(location.resolve("repo")).exists();
    assertThat(repo.get("created_at").asText()).isNotBlank();
    assertThat(repo.get("deleted_at").isNull()).isTrue();

    JsonNode fetched = ok(api.get(repoPath("obs-2024")));
    assertThat(fetched.get("id")).isEqualTo(repo.get("id"));
    assertThat(fetched.get("name").asText()).isEqualTo("Obs-2024");
    assertThat(fetched.get("description").asText()).isEqualTo("Station observations");
    assertThat(fetched.get("location")).isEqualTo(repo.get("location"));

    createRepo("alpha", null);
    assertThat(names(ok(api.get("/orgs/" + org + "/repos")).get("repos")))
        .containsExactly("alpha", "Obs-2024");
    // The arraylake client's listing by bucket: by nickname or id; a bucket the org lacks is 404.
    assertThat(names(ok(api.get("/orgs/" + org + "/buckets/default/repos"))))
        .containsExactlyInAnyOrder("alpha", "Obs-2024");
    String bucketId = ok(api.get("/orgs/" + org + "/buckets/default")).get("id").asText();
    assertThat(names(ok(api.get("/orgs/" + org + "/buckets/" + bucketId + "/repos"))))
        .containsExactlyInAnyOrder("alpha", "Obs-2024");
    assertThat(api.get("/orgs/" + org + "/buckets/elsewhere/repos").status()).isEqualTo(404);
    JsonNode log = ok(api.get(repoPath("alpha") + "/log")).get("commits");
    assertThat(messages(log)).containsExactly("Repository initialized");
    assertThat(log.get(0).get("id").asText()).isEqualTo(INITIAL_SNAPSHOT);
  }

  @Test
  void namespacesAndReposShareOneSetOfNamesCaseInsensitively() {
    ManagementApi.Reply namespace = api.post("/iceberg/v1/" + org + "/namespaces",
        Map.of("namespace", List.of("Shared")));
    assertThat(namespace.status()).isEqualTo(200);
    ManagementApi.Reply repoOverNamespace = api.post("/orgs/" + org + "/repos",
        Map.of("name", "sHARED"));
    assertThat(repoOverNamespace.status()).isEqualTo(409);
    assertThat(repoOverNamespace.detail()).contains("namespace");

    createRepo("Arrays", null);
    ManagementApi.Reply namespaceOverRepo = api.post("/iceberg/v1/" + org + "/namespaces",
        Map.of("namespace", List.of("ARRAYS")));
    assertThat(namespaceOverRepo.status()).isEqualTo(409);
    assertThat(namespaceOverRepo.body().at("/error/message").asText()).contains("repo");
    ManagementApi.Reply repoOverRepo = api.post("/orgs/" + org + "/repos",
        Map.of("name", "arrays"));
    assertThat(repoOverRepo.status()).isEqualTo(409);
    assertThat(repoOverRepo.detail()).contains("already exists");
  }

  @Test
  void aDeletedRepoKeepsItsNameAndFilesUntilRestored() {
    JsonNode repo = createRepo("scratch", "to be deleted");
    assertThat(api.delete(repoPath("scratch")).status()).isEqualTo(204);
    assertThat(api.get(repoPath("scratch")).status()).isEqualTo(404);
    assertThat(api.get(repoPath("scratch") + "/refs").status()).isEqualTo(404);
    assertThat(ok(api.get("/orgs/" + org + "/repos")).get("repos")).isEmpty();
    JsonNode deleted = ok(api.get("/orgs/" + org + "/repos?deleted=true")).get("repos");
    assertThat(names(deleted)).containsExactly("scratch");
    assertThat(deleted.get(0).get("restorable_until").asText()).isNotBlank();
    assertThat(deleted.get(0).get("deleted_at").asText()).isNotBlank();
    assertThat(Path.of(URI.create(repo.get("location").asText())).resolve("repo")).exists();
    // Inside the recovery period the name still belongs to the deleted repo.
    assertThat(api.post("/orgs/" + org + "/repos", Map.of("name", "Scratch")).status())
        .isEqualTo(409);
    assertThat(api.delete(repoPath("scratch")).status()).isEqualTo(404);

    JsonNode restored = ok(api.post(repoPath("SCRATCH") + "/restore", Map.of()));
    assertThat(restored.get("id")).isEqualTo(repo.get("id"));
    assertThat(restored.get("deleted_at").isNull()).isTrue();
    assertThat(ok(api.get(repoPath("scratch"))).get("location")).isEqualTo(repo.get("location"));
    assertThat(ok(api.get(repoPath("scratch") + "/refs")).at("/branches/0/name").asText())
        .isEqualTo("main");
    assertThat(api.post(repoPath("scratch") + "/restore", Map.of()).status()).isEqualTo(404);
  }

  @Test
  void badRequestsAreRefusedWithAReason() {
    ManagementApi.Reply invalidName = api.post("/orgs/" + org + "/repos",
        Map.of("name", "no spaces"));
    assertThat(invalidName.status()).isEqualTo(400);
    assertThat(invalidName.detail()).contains("invalid name");
    ManagementApi.Reply unknownBucket = api.post("/orgs/" + org + "/repos",
        Map.of("name", "x", "bucket_nickname", "elsewhere"));
    assertThat(unknownBucket.status()).isEqualTo(400);
    assertThat(unknownBucket.detail()).contains("elsewhere");
    assertThat(api.post("/orgs/" + org + "/repos", Map.of()).status()).isEqualTo(400);

    createRepo("present", null);
    ManagementApi.Reply unknownRef = api.get(repoPath("present") + "/log?ref=nope");
    assertThat(unknownRef.status()).isEqualTo(404);
    assertThat(unknownRef.detail()).contains("nope");
    assertThat(api.get(repoPath("present") + "/log?limit=0").status()).isEqualTo(400);
    assertThat(api.get(repoPath("absent")).status()).isEqualTo(404);
    assertThat(new ManagementApi(floe.port(), "not-a-token").get("/orgs/" + org + "/repos")
        .status()).isEqualTo(401);
    assertThat(api.get("/orgs/no-such-org/repos").status()).isEqualTo(404);
  }

  @Test
  void theArraylakeClientsRoutesPageDescribeAndDeleteRepos() {
    createRepo("paginated", null);
    createRepo("winds", "Wind fields");
    createRepo("ozone", null);
    // The client's listing, not a repo named "paginated" (which the client reads at
    // /repos/{org}/{repo}).
    JsonNode page = ok(api.get("/orgs/" + org + "/repos/paginated?page=2&size=2"));
    assertThat(page.get("total").asInt()).isEqualTo(3);
    assertThat(page.get("pages").asInt()).isEqualTo(2);
    assertThat(names(page.get("items"))).containsExactly("winds");
    assertThat(ok(api.get("/repos/" + org + "/paginated")).get("name").asText())
        .isEqualTo("paginated");
    assertThat(ok(api.get("/orgs/" + org + "/repos/paginated?filter_metadata="
        + "%7B%22a%22%3A1%7D")).get("items")).isEmpty();

    JsonNode winds = ok(api.get("/repos/" + org + "/winds"));
    assertThat(winds.get("_id").asText()).isEqualTo(winds.get("id").asText().replace("-", ""));
    assertThat(winds.get("org").asText()).isEqualTo(org);
    assertThat(winds.at("/status/mode").asText()).isEqualTo("online");
    assertThat(winds.at("/bucket/nickname").asText()).isEqualTo("default");

    assertThat(ok(api.patch("/orgs/" + org + "/winds", Map.of("description", "Winds at 10 m")))
        .get("description").asText()).isEqualTo("Winds at 10 m");
    assertThat(ok(api.get(repoPath("winds"))).get("description").asText())
        .isEqualTo("Winds at 10 m");
    assertThat(api.patch("/orgs/" + org + "/winds", Map.of("add_metadata", Map.of("a", 1)))
        .status()).isEqualTo(422);
    assertThat(api.patch("/orgs/" + org + "/winds", Map.of("description", "x".repeat(5000)))
        .status()).isEqualTo(400);

    assertThat(api.delete("/orgs/" + org + "/ozone?immediate=true").status()).isEqualTo(204);
    assertThat(api.get(repoPath("ozone")).status()).isEqualTo(404);
    assertThat(names(ok(api.get("/orgs/" + org + "/repos/paginated?include_ghosts=true"))
        .get("items"))).containsExactly("paginated", "winds");
  }

  @Test
  void aRepoTheClientCreatesItselfOnALocalBucketIsOpenedThroughFloesS3Endpoint() {
    ManagementApi.Reply registered = api.post("/orgs/" + org + "/repos",
        Map.of("name", "by-client", "create_mode", "register"));
    assertThat(registered.status()).as("%s", registered.body()).isEqualTo(201);

    ManagementApi.Reply opened = api.get("/repos/" + org + "/by-client/open");
    assertThat(opened.status()).as("%s", opened.body()).isEqualTo(200);
    JsonNode bucket = opened.body().get("repo_bucket");
    assertThat(bucket.get("platform").asText()).isEqualTo("s3");
    assertThat(bucket.get("name").asText()).isEqualTo("floe-local-bucket");
    assertThat(bucket.at("/extra_config/endpoint_url").asText())
        .isEqualTo("http://127.0.0.1:" + floe.server().port());
    assertThat(bucket.at("/extra_config/force_path_style").asBoolean()).isTrue();
    assertThat(bucket.at("/auth_config/method").asText()).isEqualTo("aws_customer_managed_role");
    assertThat(opened.body().get("repo_prefix").asText())
        .isEqualTo(registered.body().get("prefix").asText());
    JsonNode credentials = opened.body().get("repo_credentials");
    assertThat(credentials.get("aws_access_key_id").asText()).startsWith("FLOE");
    assertThat(credentials.get("aws_secret_access_key").asText()).isNotEmpty();
    assertThat(credentials.get("expiration").asText()).isNotEmpty();
    assertThat(api.post("/orgs/" + org + "/repos/import", Map.of("name", "x")).status())
        .isEqualTo(406);
  }

  private JsonNode createRepo(String name, String description) {
    Map<String, String> body = description == null
        ? Map.of("name", name) : Map.of("name", name, "description", description);
    ManagementApi.Reply reply = api.post("/orgs/" + org + "/repos", body);
    assertThat(reply.status()).as("create %s: %s", name, reply.body()).isEqualTo(201);
    return reply.body();
  }

  private String repoPath(String name) {
    return "/orgs/" + org + "/repos/" + name;
  }

  private static JsonNode ok(ManagementApi.Reply reply) {
    assertThat(reply.status()).as("%s", reply.body()).isEqualTo(200);
    return reply.body();
  }

  private static List<String> messages(JsonNode commits) {
    return StreamSupport.stream(commits.spliterator(), false)
        .map(c -> c.isTextual() ? c.asText() : c.get("message").asText()).toList();
  }

  private static List<String> names(JsonNode repos) {
    return StreamSupport.stream(repos.spliterator(), false).map(r -> r.get("name").asText())
        .toList();
  }
}
