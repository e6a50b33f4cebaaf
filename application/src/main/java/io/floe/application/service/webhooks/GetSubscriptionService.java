package io.floe.application.service.webhooks;

import io.floe.application.model.SubscriptionDetails;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.in.webhooks.GetSubscriptionUseCase;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import java.util.UUID;

/** A subscription the caller may manage, with its delivery log. */
public final class GetSubscriptionService implements GetSubscriptionUseCase {
  private final WebhookSubscriptionStore store;
  private final ManagedSubscriptions managed;

  public GetSubscriptionService(WebhookSubscriptionStore store, ManagedSubscriptions managed) {
    this.store = store;
    this.managed = managed;
  }

  @Override
  public SubscriptionDetails get(OrgContext context, UUID id) {
    WebhookSubscription subscription = managed.require(context, id);
    return new SubscriptionDetails(subscription,
        store.deliveries(id, WebhookSubscriptionStore.LOG_SIZE));
  }
}
