package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code floe subscriptions ...}: subscriptions to the org's change events, delivered to a
 * webhook URL or a Kafka topic. A Kafka user's password is read from an environment variable
 * rather than a flag, so that it stays out of shell histories and process lists.
 */
@Command(name = "subscriptions", mixinStandardHelpOptions = true,
    description = "Create, list, show, resume and delete subscriptions to the org's change "
        + "events, delivered to a webhook URL or a Kafka topic.",
    subcommands = {SubscriptionsCommand.Create.class, SubscriptionsCommand.ListSubscriptions.class,
        SubscriptionsCommand.Show.class, SubscriptionsCommand.Resume.class,
        SubscriptionsCommand.Delete.class})
public final class SubscriptionsCommand implements Runnable {
  static final String KAFKA_PASSWORD_VARIABLE = "FLOE_KAFKA_PASSWORD";

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static void show(PrintWriter out, JsonNode subscription) {
    List<String> filter = new ArrayList<>();
    if (subscription.hasNonNull("namespace")) {
      filter.add("namespace " + subscription.path("namespace").asText()
          + (subscription.hasNonNull("table") ? " table " + subscription.path("table").asText()
              : ""));
    }
    if (!subscription.path("operations").isEmpty()) {
      List<String> operations = new ArrayList<>();
      subscription.path("operations").forEach(op -> operations.add(op.asText()));
      filter.add("operations " + String.join(",", operations));
    }
    out.printf("%s  %s  %s%s  owner %s  last delivered %s%s%n", subscription.path("id").asText(),
        subscription.path("state").asText(), target(subscription),
        filter.isEmpty() ? "" : "  " + String.join("  ", filter),
        subscription.path("owner_id").asText(),
        subscription.path("last_delivered_at").asText("never"),
        subscription.hasNonNull("paused_reason")
            ? "  PAUSED: " + subscription.path("paused_reason").asText() : "");
  }

  /** The URL, or the Kafka topic as {@code kafka://servers/topic} (and its user). */
  static String target(JsonNode subscription) {
    if (subscription.hasNonNull("url")) {
      return subscription.path("url").asText();
    }
    JsonNode kafka = subscription.path("kafka");
    return "kafka://" + kafka.path("bootstrap_servers").asText() + "/"
        + kafka.path("topic").asText() + (kafka.path("tls").asBoolean() ? " (tls)" : "")
        + (kafka.hasNonNull("username") ? " as " + kafka.path("username").asText() : "");
  }

  @Command(name = "create",
      description = "Subscribe a URL, or a Kafka topic (--kafka-bootstrap and --kafka-topic); "
          + "the secret that signs deliveries is printed this once.")
  static final class Create extends OrgSubcommand {
    @Parameters(paramLabel = "URL", arity = "0..1",
        description = "The webhook URL; leave it out for a Kafka topic.")
    String url;

    @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT[,HOST:PORT...]",
        description = "Deliver to Kafka: the cluster's bootstrap servers.")
    String kafkaBootstrap;

    @Option(names = "--kafka-topic", paramLabel = "TOPIC",
        description = "The Kafka topic the events are written to.")
    String kafkaTopic;

    @Option(names = "--kafka-tls", description = "Connect to Kafka over TLS.")
    boolean kafkaTls;

    @Option(names = "--kafka-username", paramLabel = "USER",
        description = "Authenticate to Kafka with SASL/PLAIN as USER; the password is read from "
            + KAFKA_PASSWORD_VARIABLE + ".")
    String kafkaUsername;

    @Option(names = "--namespace", description = "Only this namespace's events.")
    String namespace;

    @Option(names = "--table", description = "Only this table's (or view's) events; needs "
        + "--namespace.")
    String table;

    @Option(names = "--operation", paramLabel = "ACTION",
        description = "Only these changes, such as table.commit; repeat for several.")
    List<String> operations = new ArrayList<>();

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("url", url);
      if (kafkaBootstrap != null || kafkaTopic != null) {
        Map<String, Object> kafka = new LinkedHashMap<>();
        kafka.put("bootstrap_servers", kafkaBootstrap);
        kafka.put("topic", kafkaTopic);
        kafka.put("tls", kafkaTls);
        kafka.put("username", kafkaUsername);
        kafka.put("password", kafkaUsername == null ? null
            : System.getenv(KAFKA_PASSWORD_VARIABLE));
        body.put("kafka", kafka);
      }
      body.put("namespace", namespace);
      body.put("table", table);
      body.put("operations", operations);
      JsonNode created = api.client().post(orgPath() + "/subscriptions", body);
      return print(created, out -> {
        out.println(created.path("secret").asText());
        show(out, created.path("subscription"));
      });
    }
  }

  @Command(name = "list", description = "List the subscriptions you manage (never secrets).")
  static final class ListSubscriptions extends OrgSubcommand {
    @Override
    public Integer call() {
      JsonNode listed = api.client().get(orgPath() + "/subscriptions");
      return print(listed, out -> listed.path("subscriptions").forEach(s -> show(out, s)));
    }
  }

  @Command(name = "show", description = "Show a subscription and its recent deliveries.")
  static final class Show extends OrgSubcommand {
    @Parameters(paramLabel = "SUBSCRIPTION_ID") String id;

    @Override
    public Integer call() {
      JsonNode shown = api.client().get(orgPath() + "/subscriptions/" + segment(id));
      return print(shown, out -> {
        show(out, shown.path("subscription"));
        shown.path("deliveries").forEach(attempt -> out.printf("  %s  event %s  attempt %d  %s"
                + "  %d ms%s%n", attempt.path("attempted_at").asText(),
            attempt.path("event_id").asText(), attempt.path("attempt").asInt(),
            attempt.hasNonNull("status") ? "HTTP " + attempt.path("status").asText() : "-",
            attempt.path("latency_ms").asLong(),
            attempt.hasNonNull("error") ? "  " + attempt.path("error").asText() : ""));
      });
    }
  }

  @Command(name = "resume", description = "Resume a paused subscription where it stopped.")
  static final class Resume extends OrgSubcommand {
    @Parameters(paramLabel = "SUBSCRIPTION_ID") String id;

    @Override
    public Integer call() {
      JsonNode resumed = api.client().post(orgPath() + "/subscriptions/" + segment(id)
          + "/resume", Map.of());
      return print(resumed, out -> show(out, resumed));
    }
  }

  @Command(name = "delete", description = "Delete a subscription: nothing more is delivered.")
  static final class Delete extends OrgSubcommand {
    @Parameters(paramLabel = "SUBSCRIPTION_ID") String id;

    @Override
    public Integer call() {
      JsonNode deleted = api.client().delete(orgPath() + "/subscriptions/" + segment(id));
      return print(deleted, out -> out.println("deleted " + id));
    }
  }
}
