package io.floe.adapters.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.port.out.StorageNetwork;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.StoragePlatform;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * Where hosts lead, by the addresses the JVM resolves them to (the same resolver the storage
 * clients use), and the token server a Google service-account key names.
 */
public final class InetStorageNetwork implements StorageNetwork {
  /** Where Google's client library exchanges a service-account key for tokens by default. */
  static final URI GOOGLE_TOKEN_SERVER = URI.create("https://oauth2.googleapis.com/token");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Reach reach(String host) {
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (UnknownHostException | SecurityException e) {
      return Reach.UNRESOLVED;
    }
    for (InetAddress address : addresses) {
      if (isInternal(address)) {
        return Reach.PRIVATE;
      }
    }
    return addresses.length == 0 ? Reach.UNRESOLVED : Reach.PUBLIC;
  }

  @Override
  public List<URI> credentialServers(BucketConfig bucket) {
    BucketCredentials credentials = bucket.credentials();
    if (bucket.platform() != StoragePlatform.GCS
        || credentials.kind() != BucketCredentials.Kind.STATIC) {
      return List.of();
    }
    return credentials.secretAccessKey().flatMap(InetStorageNetwork::tokenServer)
        .filter(uri -> !uri.equals(GOOGLE_TOKEN_SERVER)).map(List::of).orElse(List.of());
  }

  /** The {@code token_uri} of a service-account key (JSON), when it names one. */
  private static Optional<URI> tokenServer(String key) {
    try {
      JsonNode uri = JSON.readTree(key).path("token_uri");
      if (!uri.isTextual()) {
        return Optional.empty();
      }
      URI parsed = URI.create(uri.asText());
      // A token server without a host is one the client library cannot reach either.
      return parsed.getHost() == null ? Optional.empty() : Optional.of(parsed);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty(); // not a key the client library could read: it fails on use
    }
  }

  /** The server's own machine or network, as {@link InternalAddresses} decides it. */
  static boolean isInternal(InetAddress address) {
    return InternalAddresses.isInternal(address);
  }
}
