package io.floe.adapters.storage.shared;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.CredentialVendor.VendedCredentials;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reuses vended credentials while most of their life is left, so that an engine loading a table
 * in a loop costs one token exchange per half session, not one per load. Keyed by everything
 * the credentials depend on, the requester included (it names the session in audit logs).
 */
public final class VendedCredentialCache {
  private record Key(BucketConfig bucket, StoragePath location, Access access, String requester) {}

  private static final int MAX_ENTRIES = 10_000;

  private final Map<Key, VendedCredentials> entries = new ConcurrentHashMap<>();
  private final Duration minimumRemaining;
  private final Clock clock;

  public VendedCredentialCache(Duration sessionDuration, Clock clock) {
    this.minimumRemaining = sessionDuration.dividedBy(2);
    this.clock = clock;
  }

  public Optional<VendedCredentials> get(BucketConfig bucket, StoragePath location, Access access,
      String requester, Supplier<Optional<VendedCredentials>> vend) {
    Key key = new Key(bucket, location, access, requester);
    VendedCredentials cached = entries.get(key);
    if (cached != null && fresh(cached)) {
      return Optional.of(cached);
    }
    Optional<VendedCredentials> vended = vend.get();
    vended.ifPresent(credentials -> {
      if (entries.size() >= MAX_ENTRIES) {
        entries.values().removeIf(entry -> !fresh(entry));
      }
      if (entries.size() < MAX_ENTRIES) {
        entries.put(key, credentials);
      }
    });
    return vended;
  }

  private boolean fresh(VendedCredentials credentials) {
    return credentials.expiresAt().isAfter(clock.instant().plus(minimumRemaining));
  }
}
