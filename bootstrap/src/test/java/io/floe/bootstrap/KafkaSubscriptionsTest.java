package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.service.webhooks.RetryPolicy;
import io.floe.application.service.webhooks.WebhookSignature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subscriptions to a Kafka topic, against Apache Kafka itself (one KRaft node in this JVM, from
 * Kafka's own jars): each committed change becomes one record, keyed by its table
 * ({@code org/namespace/table}), in commit
 * order per table, carrying the same signed CloudEvent a webhook gets; a refused commit makes
 * none; an owner who may no longer read a namespace is sent nothing more of it; a SASL/PLAIN user
 * with a wrong password is a failed attempt; a broker that is down gets every event, once, after
 * it is back. Back-off waits are crossed by moving the server's clock.
 */
class KafkaSubscriptionsTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicInteger TOPICS = new AtomicInteger();
  /**
   * Short timeouts, so that an attempt on a broker that is down fails in seconds: 2 s to learn
   * the partitions, 3 s for the acknowledgement.
   */
  private static final WebhookSettings FAST = new WebhookSettings(true, Duration.ofMillis(100),
      new RetryPolicy(Duration.ofSeconds(1), Duration.ofMinutes(1), 50), Duration.ofSeconds(2),
      Duration.ofSeconds(5));

  @TempDir static Path directory;
  private static KafkaBroker broker;
  private static TestFloe floe;
  private TestFloe.Org org;
  private OrgAccess access;
  private ManagementApi admin;

  @BeforeAll
  static void start() throws Exception {
    broker = KafkaBroker.formatted(directory.resolve("kafka")).start();
    floe = TestFloe.start(directory.resolve("floe"), settings -> settings.webhooks(FAST));
  }

  @AfterAll
  static void stop() {
    if (floe != null) {
      floe.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
    access = new OrgAccess(floe, org);
    admin = access.admin();
    for (String namespace : List.of("sales", "hr")) {
      assertThat(admin.post(base() + "/iceberg/namespaces", Map.of("name", namespace)).status())
          .isEqualTo(201);
    }
  }

  private String base() {
    return "/orgs/" + org.warehouse();
  }

  private static String newTopic() throws Exception {
    String topic = "floe-events-" + TOPICS.incrementAndGet();
    broker.createTopic(topic, 3);
    return topic;
  }

  private static Map<String, Object> kafka(String servers, String topic) {
    Map<String, Object> kafka = new LinkedHashMap<>();
    kafka.put("bootstrap_servers", servers);
    kafka.put("topic", topic);
    return kafka;
  }

  /** Subscribes as {@code caller}; the answer holds the subscription and its secret. */
  private JsonNode subscribe(ManagementApi caller, Map<String, Object> kafka, String namespace) {
    Map<String, Object> body = new HashMap<>();
    body.put("kafka", kafka);
    body.put("operations", List.of("table.commit"));
    if (namespace != null) {
      body.put("namespace", namespace);
    }
    ManagementApi.Reply reply = caller.post(base() + "/subscriptions", body);
    assertThat(reply.status()).as("%s", reply.body()).isEqualTo(201);
    return reply.body();
  }

  private void appends(String namespace, String table, int count) {
    try (RESTCatalog engine = floe.catalog(org, Map.of())) {
      TableIdentifier id = TableIdentifier.of(namespace, table);
      Table created = engine.tableExists(id) ? engine.loadTable(id)
          : engine.createTable(id, SCHEMA);
      for (int i = 0; i < count; i++) {
        created.newAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath(created.location() + "/data/f" + System.nanoTime() + ".parquet")
            .withFileSizeInBytes(100).withRecordCount(10).build()).commit();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The org's commit events as an admin pulls them, in feed order. */
  private List<JsonNode> commits() {
    List<JsonNode> events = new ArrayList<>();
    admin.get(base() + "/events?limit=1000&action=table.commit").body().path("events")
        .forEach(events::add);
    return events;
  }

  private JsonNode subscription(String id) {
    return admin.get(base() + "/subscriptions/" + id).body();
  }

  /** Waits until the subscription has reached {@code position}, moving the clock on. */
  private void awaitPosition(String id, String position) {
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
      floe.clock().advance(Duration.ofMinutes(1));
      return subscription(id).at("/subscription/position").asText().equals(position);
    });
  }

  /** Every record of {@code topic}, partition by partition, each in its partition's order. */
  private static List<ConsumerRecord<String, byte[]>> records(String topic) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
        broker.bootstrapServers(), ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config,
        new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(info -> new TopicPartition(topic, info.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> read = new LinkedHashMap<>();
      partitions.forEach(partition -> read.put(partition, new ArrayList<>()));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))
          && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200))
            .forEach(record -> read.get(new TopicPartition(topic, record.partition()))
                .add(record));
      }
      return read.values().stream().flatMap(List::stream).toList();
    }
  }

  private static String header(ConsumerRecord<String, byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static JsonNode event(ConsumerRecord<String, byte[]> record) {
    try {
      return JSON.readTree(record.value());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> ids(List<ConsumerRecord<String, byte[]>> records) {
    return records.stream().map(record -> event(record).path("id").asText()).toList();
  }

  @Test
  void eachCommitIsOneRecordKeyedByItsTableInCommitOrderSignedLikeAWebhook() throws Exception {
    String topic = newTopic();
    JsonNode created = subscribe(admin, kafka(broker.bootstrapServers(), topic), null);
    String id = created.at("/subscription/id").asText();
    String secret = created.path("secret").asText();
    assertThat(created.at("/subscription/kafka/topic").asText()).isEqualTo(topic);
    assertThat(created.at("/subscription/url").isNull()).isTrue();
    // Two tables, commits interleaved, and one commit refused.
    appends("sales", "orders", 1);
    appends("hr", "people", 1);
    appends("sales", "orders", 2);
    appends("hr", "people", 1);
    IcebergHttp.Reply refused = new IcebergHttp(floe, org).post(
        "/namespaces/sales/tables/orders", "{\"requirements\":[{\"type\":"
            + "\"assert-current-schema-id\",\"current-schema-id\":7}],\"updates\":[{\"action\":"
            + "\"set-properties\",\"updates\":{\"a\":\"b\"}}]}");
    assertThat(refused.status()).isEqualTo(409);
    appends("sales", "orders", 1);
    List<JsonNode> commits = commits();
    assertThat(commits).hasSize(6);
    awaitPosition(id, commits.get(commits.size() - 1).path("position").asText());

    List<ConsumerRecord<String, byte[]>> records = records(topic);
    // Each committed change once, nothing for the refused one.
    assertThat(ids(records)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(
        commits.stream().map(event -> event.path("id").asText()).toList());
    // Keyed by the table, in commit order per table.
    for (String table : List.of("sales.orders", "hr.people")) {
      String key = org.warehouse() + "/" + table.replace('.', '/');
      List<String> expected = commits.stream()
          .filter(event -> event.path("target_name").asText().equals(table))
          .map(event -> event.path("id").asText()).toList();
      assertThat(ids(records.stream().filter(record -> key.equals(record.key())).toList()))
          .as(table).containsExactlyElementsOf(expected);
      assertThat(records.stream().filter(record -> key.equals(record.key()))
          .map(ConsumerRecord::partition).distinct()).as(table).hasSize(1);
    }
    assertThat(records).allSatisfy(record -> {
      JsonNode event = event(record);
      assertThat(record.key()).isEqualTo(org.warehouse() + "/"
          + event.at("/data/target_name").asText().replace('.', '/'));
      assertThat(event.path("type").asText()).isEqualTo("io.floe.table.commit");
      assertThat(event.path("source").asText()).isEqualTo("/orgs/" + org.warehouse());
      assertThat(header(record, "content-type")).isEqualTo("application/cloudevents+json");
      assertThat(header(record, "webhook-id")).isEqualTo(event.path("id").asText());
      assertThat(WebhookSignature.verify(secret, header(record, "webhook-id"),
          Long.parseLong(header(record, "webhook-timestamp")), record.value(),
          header(record, "webhook-signature"))).isTrue();
    });
    // The delivery log shows each record written.
    JsonNode shown = subscription(id);
    assertThat(shown.path("deliveries")).hasSize(6)
        .allMatch(attempt -> attempt.path("delivered").asBoolean());
    assertThat(shown.at("/subscription/kafka/bootstrap_servers").asText())
        .isEqualTo(broker.bootstrapServers());
  }

  @Test
  void anOwnerIsSentOnlyWhatItMayReadOverSaslAndAWrongPasswordIsAFailedAttempt()
      throws Exception {
    TestFloe.Org analyst = access.newUser("analyst");
    String grant = access.grant(access.idOf("analyst"), "sales", null, "read");
    ManagementApi asAnalyst = access.as(analyst);
    String topic = newTopic();
    Map<String, Object> target = kafka(broker.saslBootstrapServers(), topic);
    target.put("username", KafkaBroker.SASL_USER);
    target.put("password", KafkaBroker.SASL_PASSWORD);
    // A member may not follow a namespace it cannot read.
    assertThat(asAnalyst.post(base() + "/subscriptions", Map.of("kafka", target,
        "namespace", "hr")).status()).isIn(403, 404);
    JsonNode created = subscribe(asAnalyst, target, "sales");
    String id = created.at("/subscription/id").asText();
    assertThat(created.at("/subscription/kafka/username").asText())
        .isEqualTo(KafkaBroker.SASL_USER);
    Map<String, Object> wrong = kafka(broker.saslBootstrapServers(), newTopic());
    wrong.put("username", KafkaBroker.SASL_USER);
    wrong.put("password", "not-the-password");
    String refusedId = subscribe(admin, wrong, "sales").at("/subscription/id").asText();

    appends("sales", "orders", 1);
    appends("hr", "people", 1);
    String first = commits().get(0).path("id").asText();
    awaitPosition(id, commits().get(0).path("position").asText());
    // The grant revoked, the next commit of sales is passed over, never written.
    assertThat(admin.delete(base() + "/grants/" + grant).status()).isIn(200, 204);
    appends("sales", "orders", 1);
    List<JsonNode> commits = commits();
    awaitPosition(id, commits.get(commits.size() - 1).path("position").asText());
    assertThat(ids(records(topic))).containsExactly(first);

    // The wrong password: failed attempts, the reason logged, nothing written.
    await().atMost(Duration.ofSeconds(30)).until(() -> subscription(refusedId)
        .at("/subscription/consecutive_failures").asInt() > 0);
    JsonNode failing = subscription(refusedId);
    assertThat(failing.path("deliveries").get(0).path("delivered").asBoolean()).isFalse();
    assertThat(failing.path("deliveries").get(0).path("error").asText())
        .containsIgnoringCase("authentication");
    assertThat(records(wrong.get("topic").toString())).isEmpty();
    // The password is never shown, and the database holds it sealed only.
    assertThat(subscription(id).toString() + admin.get(base() + "/subscriptions").body())
        .doesNotContain(KafkaBroker.SASL_PASSWORD);
    String sealed = floe.database().dsl().fetchValue("select sealed_kafka_password from "
        + "webhook_subscriptions where id = ?::uuid", id).toString();
    assertThat(sealed).startsWith("v1:").doesNotContain(KafkaBroker.SASL_PASSWORD);
  }

  @Test
  void aBrokerThatWasDownGetsEveryEventOnceItIsBack() throws Exception {
    String topic = newTopic();
    String id = subscribe(admin, kafka(broker.bootstrapServers(), topic), null)
        .at("/subscription/id").asText();
    appends("sales", "orders", 1);
    awaitPosition(id, commits().get(0).path("position").asText());

    broker.stop();
    try {
      appends("sales", "orders", 2);
      appends("hr", "people", 1);
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
        floe.clock().advance(Duration.ofMinutes(1));
        return subscription(id).at("/subscription/consecutive_failures").asInt() >= 2;
      });
      assertThat(subscription(id).path("deliveries").get(0).path("error").asText())
          .contains(broker.bootstrapServers());
    } finally {
      broker.start();
    }
    List<JsonNode> commits = commits();
    awaitPosition(id, commits.get(commits.size() - 1).path("position").asText());

    List<ConsumerRecord<String, byte[]>> records = records(topic);
    assertThat(ids(records)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(
        commits.stream().map(event -> event.path("id").asText()).toList());
    String orders = org.warehouse() + "/sales/orders";
    assertThat(ids(records.stream().filter(record -> orders.equals(record.key())).toList()))
        .containsExactlyElementsOf(commits.stream()
            .filter(event -> event.path("target_name").asText().equals("sales.orders"))
            .map(event -> event.path("id").asText()).toList());
    assertThat(subscription(id).at("/subscription/consecutive_failures").asInt()).isZero();
  }

  @Test
  void theCommandLineSubscribesAKafkaTopic() throws Exception {
    String topic = newTopic();
    String[] created = floe("subscriptions", "create", "--kafka-bootstrap",
        broker.bootstrapServers(), "--kafka-topic", topic, "--namespace", "sales",
        "--operation", "table.commit").split("\n");
    assertThat(created[0]).startsWith("whsec_");
    assertThat(created[1]).contains("active",
        "kafka://" + broker.bootstrapServers() + "/" + topic, "namespace sales");
    String id = created[1].split(" ")[0];
    appends("sales", "orders", 1);
    awaitPosition(id, commits().get(0).path("position").asText());
    assertThat(ids(records(topic))).containsExactly(commits().get(0).path("id").asText());
    assertThat(floe("subscriptions", "show", id)).contains(topic,
        commits().get(0).path("id").asText());
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
}
