package io.floe.application.service.webhooks;

import io.floe.application.model.Invalid;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.port.out.StorageNetwork.Reach;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one rule on where subscriptions may deliver, applied when a subscription is created and
 * again before every delivery (a host's addresses can change): an absolute {@code http} or
 * {@code https} URL without user info, or Kafka bootstrap servers ({@code host:port,...}), whose
 * hosts resolve to public addresses only, unless the operator allows loopback, link-local and
 * private targets ({@code floe serve --allow-private-webhook-targets}). The webhook sender
 * follows no redirect, so an answer cannot lead anywhere else; a Kafka cluster names its brokers
 * itself once reached, which this rule cannot see.
 */
public final class WebhookTargets {
  static final int MAX_URL_LENGTH = 2_000;
  static final int MAX_BOOTSTRAP_SERVERS = 10;
  static final int MAX_CREDENTIAL_LENGTH = 256;
  /** Kafka's own rule for topic names. */
  private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
  /** A host name or IPv4 address, or an IPv6 address in brackets, and a port. */
  private static final Pattern SERVER = Pattern.compile(
      "(\\[[0-9a-fA-F:.]+\\]|[a-zA-Z0-9]([a-zA-Z0-9.-]{0,252}[a-zA-Z0-9])?):([0-9]{1,5})");

  private final StorageNetwork network;
  private final boolean privateTargets;

  public WebhookTargets(StorageNetwork network, boolean privateTargets) {
    this.network = network;
    this.privateTargets = privateTargets;
  }

  /** {@code raw} as a target, or a 422 saying why it is none. */
  public URI parse(String raw) {
    URI url = wellFormed(raw).orElseThrow(() -> Invalid.because("url must be an absolute http "
        + "or https URL with a host, no user info, at most " + MAX_URL_LENGTH + " characters"));
    refusal(url).ifPresent(reason -> {
      throw Invalid.because(reason);
    });
    return url;
  }

  /**
   * {@code request} as a target, or a 422 saying why it is none; the password of a Kafka user is
   * checked here too, and left out of the target.
   */
  public SubscriptionTarget parse(SubscriptionTargetRequest request) {
    if (request instanceof SubscriptionTargetRequest.Webhook webhook) {
      return new SubscriptionTarget.Webhook(parse(webhook.url()));
    }
    var kafka = (SubscriptionTargetRequest.Kafka) request;
    String servers = bootstrapServers(kafka.bootstrapServers());
    if (kafka.topic() == null || !TOPIC.matcher(kafka.topic()).matches()
        || kafka.topic().equals(".") || kafka.topic().equals("..")) {
      throw Invalid.because("kafka topic must be 1 to 249 letters, digits, '.', '_' or '-' "
          + "(and not . or ..)");
    }
    if (kafka.username().isPresent() != kafka.password().isPresent()) {
      throw Invalid.because("a kafka username needs its password, and a password its username");
    }
    for (Optional<String> credential : List.of(kafka.username(), kafka.password())) {
      if (credential.filter(value -> value.isEmpty() || value.length() > MAX_CREDENTIAL_LENGTH
          || value.codePoints().anyMatch(c -> c < ' ' || c == 0x7f
              || Character.getType(c) == Character.SURROGATE)).isPresent()) {
        throw Invalid.because("a kafka username and password must be 1 to "
            + MAX_CREDENTIAL_LENGTH + " characters, none a control character or half a "
            + "surrogate pair");
      }
    }
    SubscriptionTarget target = new SubscriptionTarget.Kafka(servers, kafka.topic(), kafka.tls(),
        kafka.username());
    refusal(target).ifPresent(reason -> {
      throw Invalid.because(reason);
    });
    return target;
  }

  /** Why {@code target} may not be sent to now; empty when it may. */
  public Optional<String> refusal(SubscriptionTarget target) {
    if (target instanceof SubscriptionTarget.Webhook webhook) {
      return refusal(webhook.url());
    }
    for (String server : ((SubscriptionTarget.Kafka) target).bootstrapServers().split(",")) {
      String host = server.substring(0, server.lastIndexOf(':'));
      Optional<String> refused = refusal(unbracketed(host), "the kafka bootstrap server "
          + server);
      if (refused.isPresent()) {
        return refused;
      }
    }
    return Optional.empty();
  }

  /** Why {@code url} may not be sent to now; empty when it may. */
  public Optional<String> refusal(URI url) {
    return refusal(unbracketed(url.getHost()), "the webhook URL");
  }

  private Optional<String> refusal(String host, String what) {
    Reach reach = network.reach(host);
    if (reach == Reach.UNRESOLVED) {
      return Optional.of("the host of " + what + " does not resolve");
    }
    if (reach == Reach.PRIVATE && !privateTargets) {
      return Optional.of(what + " leads to a loopback, link-local or private address: "
          + "the operator has not allowed such targets (floe serve "
          + "--allow-private-webhook-targets)");
    }
    return Optional.empty();
  }

  /** {@code raw} as {@code host:port,...}, each checked, without blanks. */
  private static String bootstrapServers(String raw) {
    String why = "kafka bootstrap_servers must be 1 to " + MAX_BOOTSTRAP_SERVERS
        + " host:port pairs separated by commas (an IPv6 address in brackets)";
    if (raw == null || raw.isBlank() || raw.length() > MAX_URL_LENGTH) {
      throw Invalid.because(why);
    }
    List<String> servers = new ArrayList<>();
    for (String part : raw.split(",", -1)) {
      String server = part.strip();
      var matched = SERVER.matcher(server);
      if (!matched.matches() || Integer.parseInt(matched.group(3)) < 1
          || Integer.parseInt(matched.group(3)) > 65_535) {
        throw Invalid.because(why);
      }
      servers.add(server);
    }
    if (servers.size() > MAX_BOOTSTRAP_SERVERS) {
      throw Invalid.because(why);
    }
    return String.join(",", servers);
  }

  private static Optional<URI> wellFormed(String raw) {
    if (raw == null || raw.isEmpty() || raw.length() > MAX_URL_LENGTH
        || raw.chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
      return Optional.empty();
    }
    try {
      URI url = new URI(raw);
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      boolean ok = (scheme.equals("http") || scheme.equals("https")) && url.getHost() != null
          && !url.getHost().isEmpty() && url.getRawUserInfo() == null && url.getFragment() == null
          && url.getPort() <= 65_535;
      // The scheme in lower case, as HTTP clients expect it.
      return ok ? Optional.of(new URI(scheme + raw.substring(scheme.length())))
          : Optional.empty();
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  private static String unbracketed(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
        : host;
  }
}
