package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenancePolicyView;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;

/** A level's own maintenance policy and the one that applies there, for who may read it. */
public final class GetMaintenancePolicyService implements GetMaintenancePolicyUseCase {
  private final PolicyLevels levels;

  public GetMaintenancePolicyService(PolicyLevels levels) {
    this.levels = levels;
  }

  @Override
  public MaintenancePolicyView get(OrgContext context, PolicyTarget target) {
    return levels.view(levels.resolve(context, target, Action.READ));
  }
}
