package io.floe.application.port.in.maintenance;

import io.floe.application.model.MaintenancePolicyView;
import io.floe.application.security.OrgContext;

/**
 * The maintenance policy set on an org, a namespace or a table, and the one that applies there:
 * each field from the nearest level that sets it, with where it comes from.
 */
public interface GetMaintenancePolicyUseCase {
  MaintenancePolicyView get(OrgContext context, PolicyTarget target);
}
