package io.floe.application.service.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.port.out.StorageNetwork;
import io.floe.domain.BucketConfig;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one rule on where webhooks may go, on a network whose hosts lead where a map says. */
class WebhookTargetsTest {
  private static final StorageNetwork NETWORK = new StorageNetwork() {
    private final Map<String, Reach> hosts = Map.of("hooks.example.com", Reach.PUBLIC,
        "127.0.0.1", Reach.PRIVATE, "::1", Reach.PRIVATE, "internal.example.com", Reach.PRIVATE);

    @Override
    public Reach reach(String host) {
      return hosts.getOrDefault(host, Reach.UNRESOLVED);
    }

    @Override
    public List<URI> credentialServers(BucketConfig bucket) {
      return List.of();
    }
  };

  @Test
  void onlyAbsoluteHttpUrlsOfPublicHostsUnlessTheOperatorAllowsPrivateOnes() {
    WebhookTargets strict = new WebhookTargets(NETWORK, false);
    WebhookTargets lenient = new WebhookTargets(NETWORK, true);
    assertThat(strict.parse("https://hooks.example.com/floe?x=1"))
        .isEqualTo(URI.create("https://hooks.example.com/floe?x=1"));
    assertThat(strict.parse("HTTP://hooks.example.com:8443/"))
        .isEqualTo(URI.create("http://hooks.example.com:8443/"));
    for (String malformed : List.of("", "ftp://hooks.example.com/x", "file:///etc/passwd",
        "https://user:pw@hooks.example.com/x", "/relative", "hooks.example.com/x",
        "https://hooks.example.com/x#fragment", "https://hooks.example.com/ x",
        "https://hooks.example.com/\u00e9", "https://" + "a".repeat(2_000) + ".com/")) {
      assertThatThrownBy(() -> lenient.parse(malformed)).as(malformed)
          .hasMessageContaining("absolute http or https URL");
    }
    for (String internal : List.of("http://127.0.0.1:9/x", "http://[::1]/x",
        "https://internal.example.com/x")) {
      assertThatThrownBy(() -> strict.parse(internal)).as(internal)
          .hasMessageContaining("--allow-private-webhook-targets");
      assertThat(lenient.parse(internal)).isEqualTo(URI.create(internal));
    }
    assertThatThrownBy(() -> lenient.parse("https://nowhere.example.com/x"))
        .hasMessageContaining("does not resolve");
    assertThat(strict.refusal(URI.create("http://127.0.0.1/x"))).isPresent();
    assertThat(strict.refusal(URI.create("https://hooks.example.com/x"))).isEmpty();
  }

  @Test
  void kafkaBootstrapServersFollowTheSameRuleAndTopicsKafkasOwn() {
    WebhookTargets strict = new WebhookTargets(NETWORK, false);
    WebhookTargets lenient = new WebhookTargets(NETWORK, true);
    assertThat(strict.parse(kafka(" hooks.example.com:9092 ,hooks.example.com:9093", "floe.events",
        Optional.empty(), Optional.empty()))).isEqualTo(new SubscriptionTarget.Kafka(
            "hooks.example.com:9092,hooks.example.com:9093", "floe.events", false,
            Optional.empty()));
    assertThat(lenient.parse(kafka("[::1]:9092", "t", Optional.of("u"), Optional.of("p"))))
        .isEqualTo(new SubscriptionTarget.Kafka("[::1]:9092", "t", false, Optional.of("u")));
    for (String servers : List.of("", " ", "hooks.example.com", "hooks.example.com:0",
        "hooks.example.com:65536", "hooks.example.com:9092,", "http://hooks.example.com:9092",
        "user@hooks.example.com:9092", "hooks.example.com:9092/x",
        "hooks.example.com:1,".repeat(10) + "hooks.example.com:1")) {
      assertThatThrownBy(() -> lenient.parse(kafka(servers, "t", Optional.empty(),
          Optional.empty()))).as(servers).hasMessageContaining("host:port");
    }
    for (String topic : List.of("", ".", "..", "a b", "x/y", "t".repeat(250))) {
      assertThatThrownBy(() -> lenient.parse(kafka("hooks.example.com:9092", topic,
          Optional.empty(), Optional.empty()))).as(topic).hasMessageContaining("topic");
    }
    assertThatThrownBy(() -> lenient.parse(kafka("hooks.example.com:9092", "t", Optional.of("u"),
        Optional.empty()))).hasMessageContaining("password");
    assertThatThrownBy(() -> lenient.parse(kafka("hooks.example.com:9092", "t", Optional.of("u"),
        Optional.of("p\n")))).hasMessageContaining("control character");
    assertThatThrownBy(() -> lenient.parse(kafka("hooks.example.com:9092", "t", Optional.of("u"),
        Optional.of("p\ud800")))).hasMessageContaining("surrogate");
    assertThat(lenient.parse(kafka("hooks.example.com:9092", "t", Optional.of("ü"),
        Optional.of("p\ud83d\ude00")))).isNotNull();
    // One private server among public ones is enough to refuse the target.
    assertThatThrownBy(() -> strict.parse(kafka("hooks.example.com:9092,127.0.0.1:9092", "t",
        Optional.empty(), Optional.empty()))).hasMessageContaining("127.0.0.1:9092")
        .hasMessageContaining("--allow-private-webhook-targets");
    assertThatThrownBy(() -> lenient.parse(kafka("nowhere.example.com:9092", "t",
        Optional.empty(), Optional.empty()))).hasMessageContaining("does not resolve");
  }

  private static SubscriptionTargetRequest kafka(String servers, String topic,
      Optional<String> user, Optional<String> password) {
    return new SubscriptionTargetRequest.Kafka(servers, topic, false, user, password);
  }
}
