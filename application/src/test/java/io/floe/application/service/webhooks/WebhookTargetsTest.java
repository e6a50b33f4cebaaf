package io.floe.application.service.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.StorageNetwork;
import io.floe.domain.BucketConfig;
import java.net.URI;
import java.util.List;
import java.util.Map;
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
}
