package io.floe.application.port.out;

import io.floe.application.model.MaintenancePolicy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The maintenance policies set on orgs, namespaces and tables, each kept under the id of the
 * object it is set on. Deleting an org deletes its policies.
 */
public interface MaintenancePolicyStore {
  /** The level a policy is set on. */
  enum Scope { ORG, NAMESPACE, TABLE }

  /** The policy set on {@code targetId}, if any. */
  Optional<MaintenancePolicy> find(UUID targetId);

  /** Sets (or replaces) the policy on {@code targetId}, an object of {@code orgId}. */
  void put(UUID orgId, UUID targetId, Scope scope, MaintenancePolicy policy, Instant at);

  /** Removes the policy on {@code targetId}; false when there was none. */
  boolean delete(UUID targetId);

  /** The orgs with a policy set on any level: those the maintenance scheduler follows. */
  List<UUID> orgsWithPolicies();
}
