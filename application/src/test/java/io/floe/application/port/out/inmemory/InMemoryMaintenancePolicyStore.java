package io.floe.application.port.out.inmemory;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.port.out.MaintenancePolicyStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Maintenance policies in memory, for application tests: one per target id, with the org it
 * belongs to. Like the webhook subscriptions' fake, it takes no part in the fake database's
 * transactions.
 */
public final class InMemoryMaintenancePolicyStore implements MaintenancePolicyStore {
  private final Map<UUID, MaintenancePolicy> set = new HashMap<>();
  private final Map<UUID, UUID> orgs = new HashMap<>();

  @Override
  public synchronized Optional<MaintenancePolicy> find(UUID targetId) {
    return Optional.ofNullable(set.get(targetId));
  }

  @Override
  public synchronized void put(UUID orgId, UUID targetId, Scope scope, MaintenancePolicy policy,
      Instant at) {
    set.put(targetId, policy);
    orgs.put(targetId, orgId);
  }

  @Override
  public synchronized boolean delete(UUID targetId) {
    orgs.remove(targetId);
    return set.remove(targetId) != null;
  }

  @Override
  public synchronized List<UUID> orgsWithPolicies() {
    return orgs.values().stream().distinct().toList();
  }
}
