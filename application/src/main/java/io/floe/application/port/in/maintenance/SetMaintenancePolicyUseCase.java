package io.floe.application.port.in.maintenance;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenancePolicyView;
import io.floe.application.security.OrgContext;

/**
 * Sets (replaces) the maintenance policy of an org (admins), a namespace or a table (who may
 * manage it); answers the policy that now applies there.
 */
public interface SetMaintenancePolicyUseCase {
  MaintenancePolicyView set(OrgContext context, PolicyTarget target, MaintenancePolicy policy);
}
