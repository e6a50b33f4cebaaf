package io.floe.application.service.maintenance;

import io.floe.application.model.AuditAction;
import io.floe.application.port.in.maintenance.DeleteMaintenancePolicyUseCase;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import java.util.concurrent.atomic.AtomicBoolean;

/** Removes a level's maintenance policy, audited, once the caller may manage that level. */
public final class DeleteMaintenancePolicyService implements DeleteMaintenancePolicyUseCase {
  private final PolicyLevels levels;
  private final MaintenancePolicyStore store;
  private final ChangePublisher publisher;

  public DeleteMaintenancePolicyService(PolicyLevels levels, MaintenancePolicyStore store,
      ChangePublisher publisher) {
    this.levels = levels;
    this.store = store;
    this.publisher = publisher;
  }

  @Override
  public boolean delete(OrgContext context, PolicyTarget target) {
    PolicyLevels.Level level = levels.resolve(context, target, Action.MANAGE).get(0);
    if (store.find(level.id()).isEmpty()) {
      return false; // nothing to delete, nothing to audit
    }
    AtomicBoolean deleted = new AtomicBoolean();
    publisher.publish(context, SetMaintenancePolicyService.audited(
        AuditAction.MAINTENANCE_POLICY_DELETE, level), () -> deleted.set(store.delete(level.id())));
    return deleted.get();
  }
}
