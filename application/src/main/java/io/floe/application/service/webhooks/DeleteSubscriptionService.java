package io.floe.application.service.webhooks;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.in.webhooks.DeleteSubscriptionUseCase;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import java.util.UUID;

/** Deletes a subscription its owner or an admin manages, audited, with its delivery log. */
public final class DeleteSubscriptionService implements DeleteSubscriptionUseCase {
  private final WebhookSubscriptionStore store;
  private final ManagedSubscriptions managed;
  private final ChangePublisher publisher;

  public DeleteSubscriptionService(WebhookSubscriptionStore store, ManagedSubscriptions managed,
      ChangePublisher publisher) {
    this.store = store;
    this.managed = managed;
    this.publisher = publisher;
  }

  @Override
  public void delete(OrgContext context, UUID id) {
    managed.require(context, id);
    publisher.publish(context, AuditedChange.of(AuditAction.SUBSCRIPTION_DELETE,
        AuditTarget.Kind.SUBSCRIPTION, id), () -> store.delete(context.org().id(), id));
  }
}
