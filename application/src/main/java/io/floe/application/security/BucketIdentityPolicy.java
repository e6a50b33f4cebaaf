package io.floe.application.security;

import io.floe.application.model.Invalid;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.port.out.StorageNetwork.Reach;
import io.floe.application.port.out.StorageUnavailableException;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Which identity a bucket configuration may make the server use, and where it may make the
 * server connect, decided in this one place for every bucket: when it is created or changed, and
 * again each time it is used, so that a configuration stored before a rule existed does not
 * bypass it.
 *
 * <ul>
 *   <li>The server's own cloud identity ({@code auth: ambient}: instance role, workload identity,
 *       default credentials), and any role assumed with it, belong to the operators: the buckets
 *       of the operators' org may use them; another org's only when the operator names the org
 *       ({@code --ambient-bucket-org}) and the role ({@code --bucket-role}). A role assumed with
 *       an org's own keys is that org's own business.
 *   <li>A custom endpoint, and a token server a key names, are the operators' org's to choose;
 *       another org's bucket may only name a host the operator lists ({@code
 *       --bucket-endpoint-host}).
 *   <li>Whoever names it, a host that leads to a loopback, link-local, private or otherwise
 *       internal address is refused unless the operator allows such endpoints ({@code
 *       --allow-private-bucket-endpoints}).
 *   <li>An endpoint is {@code http(s)://host[:port]}, nothing more.
 * </ul>
 *
 * <p>The rule is the same on every platform, a local bucket's included, where credentials and
 * endpoints mean nothing: where a local bucket's directory may be is {@link
 * io.floe.application.service.org.LocalBucketPlacement}'s to decide.
 */
public final class BucketIdentityPolicy {
  /** What the operator allows beyond the operators' own org (server settings). */
  public record Allowances(Set<String> endpointHosts, List<String> roles, Set<OrgName> ambientOrgs,
      boolean privateEndpoints) {
    public Allowances {
      endpointHosts = endpointHosts.stream().map(host -> host.strip().toLowerCase(Locale.ROOT))
          .collect(Collectors.toUnmodifiableSet());
      roles = List.copyOf(roles);
      ambientOrgs = Set.copyOf(ambientOrgs);
    }

    /** Nothing beyond the operators' org, and no internal endpoints for anyone. */
    public static Allowances none() {
      return new Allowances(Set.of(), List.of(), Set.of(), false);
    }

    public Allowances withPrivateEndpoints(boolean allowed) {
      return new Allowances(endpointHosts, roles, ambientOrgs, allowed);
    }

    public Allowances withEndpointHosts(Set<String> hosts) {
      return new Allowances(hosts, roles, ambientOrgs, privateEndpoints);
    }

    public Allowances withRoles(List<String> allowedRoles) {
      return new Allowances(endpointHosts, allowedRoles, ambientOrgs, privateEndpoints);
    }

    public Allowances withAmbientOrgs(Set<OrgName> orgs) {
      return new Allowances(endpointHosts, roles, orgs, privateEndpoints);
    }
  }

  private final Allowances allowances;
  private final OrgName operatorsOrg;
  private final OrgStore orgs;
  private final StorageNetwork network;

  public BucketIdentityPolicy(Allowances allowances, OrgName operatorsOrg, OrgStore orgs,
      StorageNetwork network) {
    this.allowances = Objects.requireNonNull(allowances, "allowances");
    this.operatorsOrg = Objects.requireNonNull(operatorsOrg, "operatorsOrg");
    this.orgs = Objects.requireNonNull(orgs, "orgs");
    this.network = Objects.requireNonNull(network, "network");
  }

  /**
   * For a configuration being created or changed: a refusal is a 403 naming the setting that
   * would allow it; a malformed endpoint, or one whose host has no address, a 422.
   */
  public void requireAllowed(BucketConfig bucket) {
    try {
      check(bucket);
    } catch (StorageUnavailableException e) {
      throw Invalid.because(e.getMessage());
    }
  }

  /**
   * For a stored configuration about to be used: refused as at creation, except that a host
   * without an address now is storage that cannot be reached (503), not the caller's mistake.
   */
  public void requireUsable(BucketConfig bucket) {
    check(bucket);
  }

  private void check(BucketConfig bucket) {
    boolean operators = isOperatorsBucket(bucket);
    BucketCredentials credentials = bucket.credentials();
    if (credentials.kind() == BucketCredentials.Kind.AMBIENT && !operators) {
      OrgName org = orgs.findOrg(bucket.orgId()).map(Org::name).orElse(null);
      if (org == null || !allowances.ambientOrgs().contains(org)) {
        throw new ForbiddenException("Bucket configuration '%s' would use the server's own "
            + "identity (auth method ambient), which only the operators' org may use, or an "
            + "org the operator names (floe serve --ambient-bucket-org)", bucket.nickname());
      }
      credentials.roleArn().filter(role -> !roleAllowed(role)).ifPresent(role -> {
        throw new ForbiddenException("Bucket configuration '%s' would have the server assume "
            + "role '%s' with its own identity, which the operator does not allow for this "
            + "org (floe serve --bucket-role)", bucket.nickname(), printable(role));
      });
    }
    Optional<URI> endpoint = bucket.endpoint().map(raw -> endpointUri(bucket, raw));
    endpoint.ifPresent(uri -> requireDestination(bucket, uri, operators, "endpoint"));
    for (URI server : network.credentialServers(bucket)) {
      requireDestination(bucket, server, operators, "key's token server");
    }
  }

  private boolean isOperatorsBucket(BucketConfig bucket) {
    return orgs.findOrg(operatorsOrg).map(Org::id).filter(bucket.orgId()::equals).isPresent();
  }

  /**
   * The operator's list first, so that a host nobody allowed is refused without the server
   * looking it up; then where the host leads.
   */
  private void requireDestination(BucketConfig bucket, URI uri, boolean operators, String what) {
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    if (!operators && !hostAllowed(host, port(uri))) {
      throw new ForbiddenException("Bucket configuration '%s' names host '%s' (its %s), which "
          + "the operator does not allow for this org (floe serve --bucket-endpoint-host)",
          bucket.nickname(), printable(host), what);
    }
    Reach reach = network.reach(unbracketed(host));
    if (reach == Reach.PRIVATE && !allowances.privateEndpoints()) {
      throw new ForbiddenException("Bucket configuration '%s' names host '%s' (its %s), which "
          + "leads to a loopback, link-local or private address: the operator has not allowed "
          + "such endpoints (floe serve --allow-private-bucket-endpoints)", bucket.nickname(),
          printable(host), what);
    }
    if (reach == Reach.UNRESOLVED) {
      throw new StorageUnavailableException(String.format("The %s host '%s' of bucket "
          + "configuration '%s' has no address", what, printable(host), bucket.nickname()));
    }
  }

  private boolean hostAllowed(String host, int port) {
    for (String allowed : allowances.endpointHosts()) {
      if (allowed.equals(host) || allowed.equals(host + ":" + port)
          || (allowed.startsWith("*.") && host.endsWith(allowed.substring(1)))) {
        return true;
      }
    }
    return false;
  }

  /** An exact role ARN, or one ending in {@code *} for any role with that beginning. */
  private boolean roleAllowed(String role) {
    return allowances.roles().stream().anyMatch(allowed -> allowed.endsWith("*")
        ? role.startsWith(allowed.substring(0, allowed.length() - 1)) : allowed.equals(role));
  }

  /** {@code http(s)://host[:port]} with an optional trailing slash, or a 422 saying why not. */
  static URI endpointUri(BucketConfig bucket, String raw) {
    URI uri;
    try {
      uri = new URI(raw);
    } catch (URISyntaxException e) {
      throw malformed(bucket, raw);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    boolean plain = uri.getHost() != null && uri.getRawUserInfo() == null
        && uri.getRawQuery() == null && uri.getRawFragment() == null
        && (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"));
    if (!(scheme.equals("http") || scheme.equals("https")) || !plain) {
      throw malformed(bucket, raw);
    }
    return uri;
  }

  private static RuntimeException malformed(BucketConfig bucket, String raw) {
    return Invalid.because("The endpoint of bucket configuration '" + bucket.nickname()
        + "' must be http(s)://host[:port], got '" + printable(raw) + "'");
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  private static String unbracketed(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
        : host;
  }

  /** Untrusted text for a message: bounded, without control characters. */
  private static String printable(String text) {
    String bounded = text.length() > 200 ? text.substring(0, 200) + "..." : text;
    return bounded.codePoints().map(cp -> Character.isISOControl(cp) ? '?' : cp)
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
        .toString();
  }
}
