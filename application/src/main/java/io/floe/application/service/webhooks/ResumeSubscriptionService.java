package io.floe.application.service.webhooks;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.in.webhooks.ResumeSubscriptionUseCase;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import java.util.UUID;

/**
 * Resumes a subscription: delivery starts again at once from where it stopped, the failures in a
 * row forgotten. Resuming one that is not paused only makes its next attempt due now.
 */
public final class ResumeSubscriptionService implements ResumeSubscriptionUseCase {
  private final WebhookSubscriptionStore store;
  private final ManagedSubscriptions managed;
  private final ChangePublisher publisher;

  public ResumeSubscriptionService(WebhookSubscriptionStore store, ManagedSubscriptions managed,
      ChangePublisher publisher) {
    this.store = store;
    this.managed = managed;
    this.publisher = publisher;
  }

  @Override
  public WebhookSubscription resume(OrgContext context, UUID id) {
    managed.require(context, id);
    publisher.publish(context, AuditedChange.of(AuditAction.SUBSCRIPTION_RESUME,
        AuditTarget.Kind.SUBSCRIPTION, id), () -> store.resume(context.org().id(), id));
    return managed.require(context, id);
  }
}
