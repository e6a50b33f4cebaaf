package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.application.service.webhooks.RetryPolicy;
import io.floe.application.service.webhooks.WebhookSignature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks end to end: a receiver on 127.0.0.1 gets each commit once as a signed CloudEvent, in
 * commit order; a receiver that fails gets the same events later, in order, without gaps; a
 * subscription that keeps failing pauses with the reason shown and resumes where it stopped; an
 * owner whose grant was revoked is sent nothing more of that namespace; two servers on one
 * database deliver each event once between them; a private target is refused without the
 * operator's flag. Back-off waits are crossed by moving the server's clock.
 */
class WebhooksTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final int PAUSE_AFTER = 4;

  @TempDir static Path directory;
  private static TestFloe floe;
  private TestFloe.Org org;
  private OrgAccess access;
  private ManagementApi admin;
  private WebhookReceiver receiver;

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory, settings -> settings.webhooks(TestFloe.LOOPBACK_WEBHOOKS
        .withRetries(new RetryPolicy(Duration.ofSeconds(1), Duration.ofMinutes(1),
            PAUSE_AFTER))));
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @BeforeEach
  void newOrg() throws Exception {
    org = floe.newOrg();
    access = new OrgAccess(floe, org);
    admin = access.admin();
    for (String namespace : List.of("sales", "hr")) {
      assertThat(admin.post(base() + "/iceberg/namespaces", Map.of("name", namespace)).status())
          .isEqualTo(201);
    }
    receiver = new WebhookReceiver();
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  private String base() {
    return "/orgs/" + org.warehouse();
  }

  private static DataFile file(Table table, int n) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/f" + n + ".parquet").withFileSizeInBytes(100)
        .withRecordCount(10 + n).build();
  }

  /** Subscribes as {@code caller}; the answer holds the subscription and its secret. */
  private static JsonNode subscribe(ManagementApi caller, String base, Map<String, Object> body) {
    ManagementApi.Reply reply = caller.post(base + "/subscriptions", body);
    assertThat(reply.status()).as("%s", reply.body()).isEqualTo(201);
    assertThat(reply.body().path("secret").asText()).startsWith("whsec_");
    return reply.body();
  }

  private List<Long> appends(TestFloe server, String table, int count) throws Exception {
    List<Long> snapshots = new ArrayList<>();
    try (RESTCatalog engine = server.catalog(org, Map.of())) {
      TableIdentifier id = TableIdentifier.of("sales", table);
      Table created = engine.tableExists(id) ? engine.loadTable(id)
          : engine.createTable(id, SCHEMA);
      for (int i = 0; i < count; i++) {
        created.newAppend().appendFile(file(created, i)).commit();
        snapshots.add(created.currentSnapshot().snapshotId());
      }
    }
    return snapshots;
  }

  /** The ids of the org's events of one action, in feed order, as an admin pulls them. */
  private List<String> pulledIds(String action) {
    JsonNode page = admin.get(base() + "/events?limit=1000&action=" + action).body();
    List<String> ids = new ArrayList<>();
    page.path("events").forEach(event -> ids.add(event.path("id").asText()));
    return ids;
  }

  private static boolean signed(String secret, WebhookReceiver.Request request) {
    return WebhookSignature.verify(secret, request.id(), Long.parseLong(request.timestamp()),
        request.body(), request.signature());
  }

  @Test
  void eachCommitReachesTheReceiverOnceSignedInCommitOrder() throws Exception {
    JsonNode created = subscribe(admin, base(), Map.of("url", receiver.url(),
        "namespace", "sales", "operations", List.of("table.commit")));
    String secret = created.path("secret").asText();
    List<Long> snapshots = appends(floe, "orders", 3);

    await().atMost(Duration.ofSeconds(30))
        .until(() -> receiver.acknowledged().size() >= 3);
    List<WebhookReceiver.Request> got = receiver.requests();
    assertThat(got).hasSize(3);
    assertThat(got).allMatch(request -> signed(secret, request));
    assertThat(got).extracting(WebhookReceiver.Request::contentType)
        .containsOnly("application/cloudevents+json");
    assertThat(got).extracting(request -> request.event().path("id").asText())
        .containsExactlyElementsOf(pulledIds("table.commit"));
    assertThat(got).extracting(WebhookReceiver.Request::id)
        .containsExactlyElementsOf(pulledIds("table.commit"));
    assertThat(got).extracting(request -> request.event().at("/data/details/snapshot_id")
        .asLong()).containsExactlyElementsOf(snapshots);
    JsonNode first = got.get(0).event();
    assertThat(first.path("specversion").asText()).isEqualTo("1.0");
    assertThat(first.path("type").asText()).isEqualTo("io.floe.table.commit");
    assertThat(first.path("source").asText()).isEqualTo("/orgs/" + org.warehouse());
    assertThat(first.path("subject").asText()).isEqualTo("table/sales.orders");
    // A body changed on the way fails the check.
    WebhookReceiver.Request tampered = new WebhookReceiver.Request(got.get(0).id(),
        got.get(0).timestamp(), got.get(0).signature(), got.get(0).contentType(),
        new String(got.get(0).body(), StandardCharsets.UTF_8).replace("orders", "orderz")
            .getBytes(StandardCharsets.UTF_8), 204);
    assertThat(signed(secret, tampered)).isFalse();

    // The delivery log shows each attempt; the secret is never shown again.
    JsonNode shown = admin.get(base() + "/subscriptions/"
        + created.at("/subscription/id").asText()).body();
    assertThat(shown.path("deliveries")).hasSize(3)
        .allMatch(attempt -> attempt.path("delivered").asBoolean()
            && attempt.path("status").asInt() == 204);
    assertThat(shown.toString()).doesNotContain(secret.substring(6));
    assertThat(admin.get(base() + "/subscriptions").body().toString())
        .doesNotContain(secret.substring(6));
    String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
        .newBuilder(java.net.URI.create("http://127.0.0.1:" + floe.port() + "/metrics")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    String subscription = created.at("/subscription/id").asText();
    assertThat(metrics).contains("floe_webhook_deliveries_total{subscription=\"" + subscription
        + "\"} 3.0", "floe_webhook_lag_events{subscription=\"" + subscription + "\"} 0.0");
    // The database holds the secret sealed only.
    String sealed = floe.database().dsl().fetchValue("select sealed_secret from "
        + "webhook_subscriptions where id = ?::uuid", subscription).toString();
    assertThat(sealed).startsWith("v1:").doesNotContain(secret.substring(6));
  }

  @Test
  void aFailingReceiverGetsEveryEventLaterInOrderWithoutGaps() throws Exception {
    subscribe(admin, base(), Map.of("url", receiver.url(), "namespace", "sales"));
    receiver.failNext(PAUSE_AFTER - 1);
    appends(floe, "orders", 3);
    List<String> expected = pulledIds("table.create");
    expected.addAll(pulledIds("table.commit"));

    // Each failure puts the next attempt a back-off later on the server's clock: move it on.
    await().atMost(Duration.ofSeconds(60)).until(() -> {
      floe.clock().advance(Duration.ofMinutes(1));
      return receiver.acknowledged().size() >= 4;
    });
    List<WebhookReceiver.Request> got = receiver.requests();
    assertThat(got).extracting(WebhookReceiver.Request::answered)
        .containsExactly(500, 500, 500, 204, 204, 204, 204);
    // The first event was retried until acknowledged; nothing was sent before it was.
    assertThat(got.subList(0, 4)).extracting(WebhookReceiver.Request::id)
        .containsOnly(expected.get(0));
    assertThat(receiver.acknowledged()).extracting(WebhookReceiver.Request::id)
        .containsExactlyElementsOf(expected);
  }

  @Test
  void repeatedFailuresPauseWithTheReasonAndResumeContinuesWhereItStopped() throws Exception {
    JsonNode created = subscribe(admin, base(), Map.of("url", receiver.url(),
        "operations", List.of("table.commit")));
    String path = base() + "/subscriptions/" + created.at("/subscription/id").asText();
    receiver.failAll(true);
    appends(floe, "orders", 2);

    await().atMost(Duration.ofSeconds(60)).until(() -> {
      floe.clock().advance(Duration.ofMinutes(1));
      return admin.get(path).body().at("/subscription/state").asText().equals("paused");
    });
    JsonNode paused = admin.get(path).body();
    assertThat(paused.at("/subscription/paused_reason").asText())
        .contains("paused after " + PAUSE_AFTER).contains("500");
    assertThat(paused.at("/subscription/consecutive_failures").asInt()).isEqualTo(PAUSE_AFTER);
    assertThat(paused.path("deliveries")).hasSize(PAUSE_AFTER)
        .allMatch(attempt -> attempt.path("status").asInt() == 500
            && !attempt.path("delivered").asBoolean());
    // Paused, it is not tried again, however much time passes.
    floe.clock().advance(Duration.ofHours(1));
    int attempts = receiver.requests().size();
    assertThat(attempts).isEqualTo(PAUSE_AFTER);

    receiver.failAll(false);
    ManagementApi.Reply resumed = admin.post(path + "/resume", Map.of());
    assertThat(resumed.status()).as("%s", resumed.body()).isEqualTo(200);
    assertThat(resumed.body().path("state").asText()).isEqualTo("active");
    await().atMost(Duration.ofSeconds(30)).until(() -> receiver.acknowledged().size() >= 2);
    assertThat(receiver.acknowledged()).extracting(WebhookReceiver.Request::id)
        .containsExactlyElementsOf(pulledIds("table.commit"));
  }

  @Test
  void aRevokedGrantStopsDeliveryOfThatNamespace() throws Exception {
    TestFloe.Org analyst = access.newUser("analyst");
    String grant = access.grant(access.idOf("analyst"), "sales", null, "read");
    ManagementApi asAnalyst = access.as(analyst);
    // A member may follow only what it may read.
    assertThat(asAnalyst.post(base() + "/subscriptions", Map.of("url", receiver.url()))
        .status()).isEqualTo(403);
    assertThat(asAnalyst.post(base() + "/subscriptions", Map.of("url", receiver.url(),
        "namespace", "hr")).status()).isIn(403, 404);
    JsonNode created = subscribe(asAnalyst, base(), Map.of("url", receiver.url(),
        "namespace", "sales", "operations", List.of("table.commit")));
    String path = base() + "/subscriptions/" + created.at("/subscription/id").asText();
    appends(floe, "orders", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receiver.acknowledged().size() >= 1);

    assertThat(admin.delete(base() + "/grants/" + grant).status()).isIn(200, 204);
    appends(floe, "orders", 1);
    List<String> commits = pulledIds("table.commit");
    String lastPosition = lastPosition("table.commit");
    // The subscription moves past the second commit without sending it.
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.get(path).body()
        .at("/subscription/position").asText().equals(lastPosition));
    assertThat(receiver.requests()).extracting(WebhookReceiver.Request::id)
        .containsExactly(commits.get(0));
    // Other principals' subscriptions are not theirs to see.
    TestFloe.Org other = access.newUser("other");
    assertThat(access.as(other).get(path).status()).isEqualTo(404);
    assertThat(access.as(other).get(base() + "/subscriptions").body().path("subscriptions"))
        .isEmpty();
    assertThat(access.as(other).delete(path).status()).isEqualTo(404);
  }

  @Test
  void eventsCommittedWhileTheReceiverIsDownArriveAfterARestartWithTheirIds(@TempDir Path own)
      throws Exception {
    List<String> committed = new ArrayList<>();
    try (TestFloe server = TestFloe.start(own)) {
      org = server.operators();
      ManagementApi api = new ManagementApi(server.port(), org.token());
      assertThat(api.post(base() + "/iceberg/namespaces", Map.of("name", "sales")).status())
          .isEqualTo(201);
      subscribe(api, base(), Map.of("url", receiver.url(), "operations",
          List.of("table.commit")));
      receiver.failAll(true);
      appends(server, "orders", 3);
      await().atMost(Duration.ofSeconds(30)).until(() -> !receiver.requests().isEmpty());
      api.get(base() + "/events?limit=1000&action=table.commit").body().path("events")
          .forEach(event -> committed.add(event.path("id").asText()));
    }
    receiver.failAll(false);
    try (TestFloe restarted = TestFloe.start(own)) {
      await().atMost(Duration.ofSeconds(60)).until(() -> {
        restarted.clock().advance(Duration.ofMinutes(1));
        return receiver.acknowledged().size() >= 3;
      });
      assertThat(receiver.acknowledged()).extracting(WebhookReceiver.Request::id)
          .containsExactlyElementsOf(committed);
      assertThat(receiver.requests()).extracting(WebhookReceiver.Request::id)
          .containsOnly(committed.toArray(String[]::new));
    }
  }

  @Test
  void theCommandLineManagesSubscriptions() throws Exception {
    String[] created = floe("subscriptions", "create", receiver.url(), "--namespace", "sales",
        "--operation", "table.commit").split("\n");
    assertThat(created[0]).startsWith("whsec_");
    String id = created[1].split(" ")[0];
    assertThat(created[1]).contains("active", receiver.url(), "namespace sales",
        "operations table.commit");
    appends(floe, "orders", 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> receiver.acknowledged().size() >= 1);
    assertThat(floe("subscriptions", "list")).contains(id);
    assertThat(floe("subscriptions", "show", id)).contains("HTTP 204",
        receiver.acknowledged().get(0).id());
    assertThat(floe("subscriptions", "resume", id)).contains(id, "active");
    floe("subscriptions", "delete", id);
    assertThat(floe("subscriptions", "list")).doesNotContain(id);
  }

  /** {@code floe ...} as the org's admin; its output, once it succeeded. */
  private String floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.port(), "--token", org.token(),
        "--org", org.warehouse()));
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    picocli.CommandLine command = FloeCommand.commandLine();
    command.setOut(new java.io.PrintWriter(out, true));
    command.setErr(new java.io.PrintWriter(err, true));
    assertThat(command.execute(all.toArray(String[]::new))).as("%s", err).isZero();
    return out.toString();
  }

  private String lastPosition(String action) {
    JsonNode events = admin.get(base() + "/events?limit=1000&action=" + action).body()
        .path("events");
    return events.get(events.size() - 1).path("position").asText();
  }

  @Test
  void malformedSubscriptionsAreRefused() {
    for (Map<String, Object> body : List.of(Map.<String, Object>of(),
        Map.<String, Object>of("url", "ftp://127.0.0.1/x"),
        Map.<String, Object>of("url", "http://user:pw@127.0.0.1/x"),
        Map.<String, Object>of("url", "/relative"),
        Map.<String, Object>of("url", receiver.url(), "table", "orders"),
        Map.<String, Object>of("url", receiver.url(), "operations", List.of("table.explode")),
        Map.<String, Object>of("url", "http://does-not-exist.invalid/x"))) {
      ManagementApi.Reply reply = admin.post(base() + "/subscriptions", body);
      assertThat(reply.status()).as("%s → %s", body, reply.body()).isEqualTo(422);
      assertThat(reply.detail()).isNotBlank();
    }
    assertThat(admin.get(base() + "/subscriptions").body().path("subscriptions")).isEmpty();
  }

  @Test
  void aPrivateTargetIsRefusedWithoutTheOperatorsFlag(@TempDir Path own) throws Exception {
    try (TestFloe strict = TestFloe.start(own, settings -> settings
        .webhooks(WebhookSettings.DEFAULTS))) {
      TestFloe.Org operators = strict.operators();
      ManagementApi api = new ManagementApi(strict.port(), operators.token());
      String path = "/orgs/" + operators.warehouse() + "/subscriptions";
      for (String url : List.of(receiver.url(), "http://localhost:9/x", "http://10.0.0.1/x",
          "http://169.254.169.254/latest/meta-data", "http://[::1]:9/x")) {
        ManagementApi.Reply reply = api.post(path, Map.of("url", url));
        assertThat(reply.status()).as("%s → %s", url, reply.body()).isEqualTo(422);
        assertThat(reply.detail()).as(url).contains("--allow-private-webhook-targets");
      }
      assertThat(api.get(path).body().path("subscriptions")).isEmpty();
    }
  }

  @Test
  void twoServersOnOneDatabaseDeliverEachEventOnceBetweenThem(@TempDir Path shared)
      throws Exception {
    try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(shared.resolve("pg"))) {
      Path replicas = shared.resolve("replicas");
      TestFloe first = TestFloe.start(replicas, settings -> settings
          .database(Optional.of(postgres.settings())).firstCleanupAfter(Duration.ofDays(1)));
      TestFloe second = TestFloe.start(replicas, settings -> settings
          .database(Optional.of(postgres.settings())).firstCleanupAfter(Duration.ofDays(1)));
      boolean firstRunning = true;
      try {
        TestFloe.Org operators = first.operators();
        ManagementApi api = new ManagementApi(first.port(), operators.token());
        String base = "/orgs/" + operators.warehouse();
        assertThat(api.post(base + "/iceberg/namespaces", Map.of("name", "sales")).status())
            .isEqualTo(201);
        Map<String, Object> subscription = new HashMap<>();
        subscription.put("url", receiver.url());
        subscription.put("operations", List.of("table.commit"));
        subscribe(api, base, subscription);
        // Commits through both servers.
        org = operators;
        appends(first, "orders", 3);
        appends(second, "orders", 3);
        appends(first, "orders", 2);
        await().atMost(Duration.ofSeconds(30))
            .until(() -> receiver.acknowledged().size() >= 8);
        JsonNode page = api.get(base + "/events?limit=1000&action=table.commit").body();
        List<String> expected = new ArrayList<>();
        page.path("events").forEach(event -> expected.add(event.path("id").asText()));
        assertThat(receiver.requests()).extracting(WebhookReceiver.Request::id)
            .containsExactlyElementsOf(expected);

        // One server stops (whichever was delivering): the other delivers what follows.
        first.close();
        firstRunning = false;
        appends(second, "orders", 2);
        await().atMost(Duration.ofSeconds(30))
            .until(() -> receiver.acknowledged().size() >= 10);
        page = new ManagementApi(second.port(), operators.token())
            .get(base + "/events?limit=1000&action=table.commit").body();
        List<String> all = new ArrayList<>();
        page.path("events").forEach(event -> all.add(event.path("id").asText()));
        // Each event once, in commit order: no server sent one the other had sent.
        assertThat(receiver.requests()).extracting(WebhookReceiver.Request::id)
            .containsExactlyElementsOf(all);
      } finally {
        second.close();
        if (firstRunning) {
          first.close();
        }
      }
    }
  }
}
