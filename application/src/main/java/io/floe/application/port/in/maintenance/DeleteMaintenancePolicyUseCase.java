package io.floe.application.port.in.maintenance;

import io.floe.application.security.OrgContext;

/** Removes the maintenance policy set on an org, a namespace or a table; false when none was. */
public interface DeleteMaintenancePolicyUseCase {
  boolean delete(OrgContext context, PolicyTarget target);
}
