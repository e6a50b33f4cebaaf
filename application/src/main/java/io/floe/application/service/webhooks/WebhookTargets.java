package io.floe.application.service.webhooks;

import io.floe.application.model.Invalid;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.port.out.StorageNetwork.Reach;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * The one rule on where webhooks may be sent, applied when a subscription is created and again
 * before every delivery (a host's addresses can change): an absolute {@code http} or
 * {@code https} URL without user info, whose host resolves to public addresses only, unless the
 * operator allows loopback, link-local and private targets ({@code floe serve
 * --allow-private-webhook-targets}). The sender follows no redirect, so an answer cannot lead
 * anywhere else.
 */
public final class WebhookTargets {
  static final int MAX_URL_LENGTH = 2_000;

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

  /** Why {@code url} may not be sent to now; empty when it may. */
  public Optional<String> refusal(URI url) {
    Reach reach = network.reach(unbracketed(url.getHost()));
    if (reach == Reach.UNRESOLVED) {
      return Optional.of("the host of the webhook URL does not resolve");
    }
    if (reach == Reach.PRIVATE && !privateTargets) {
      return Optional.of("the webhook URL leads to a loopback, link-local or private address: "
          + "the operator has not allowed such targets (floe serve "
          + "--allow-private-webhook-targets)");
    }
    return Optional.empty();
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
