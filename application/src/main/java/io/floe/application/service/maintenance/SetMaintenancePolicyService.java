package io.floe.application.service.maintenance;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenancePolicyView;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.port.in.maintenance.SetMaintenancePolicyUseCase;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import java.time.Clock;
import java.util.List;

/** Sets a level's maintenance policy, audited, once the caller may manage that level. */
public final class SetMaintenancePolicyService implements SetMaintenancePolicyUseCase {
  private final PolicyLevels levels;
  private final MaintenancePolicyStore store;
  private final ChangePublisher publisher;
  private final Clock clock;

  public SetMaintenancePolicyService(PolicyLevels levels, MaintenancePolicyStore store,
      ChangePublisher publisher, Clock clock) {
    this.levels = levels;
    this.store = store;
    this.publisher = publisher;
    this.clock = clock;
  }

  @Override
  public MaintenancePolicyView set(OrgContext context, PolicyTarget target,
      MaintenancePolicy policy) {
    List<PolicyLevels.Level> resolved = levels.resolve(context, target, Action.MANAGE);
    PolicyLevels.Level level = resolved.get(0);
    levels.requireAllowed(policy);
    publisher.publish(context, audited(AuditAction.MAINTENANCE_POLICY_SET, level),
        () -> store.put(context.org().id(), level.id(), level.scope(), policy, clock.instant()));
    return levels.view(resolved);
  }

  static AuditedChange audited(AuditAction action, PolicyLevels.Level level) {
    AuditTarget.Kind kind = switch (level.scope()) {
      case ORG -> AuditTarget.Kind.ORG;
      case NAMESPACE -> AuditTarget.Kind.NAMESPACE;
      case TABLE -> AuditTarget.Kind.TABLE;
    };
    return AuditedChange.of(action, kind, level.name());
  }
}
