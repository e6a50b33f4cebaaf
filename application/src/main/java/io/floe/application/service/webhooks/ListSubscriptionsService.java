package io.floe.application.service.webhooks;

import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.in.webhooks.ListSubscriptionsUseCase;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import java.util.List;

/** The org's subscriptions the caller may manage, oldest first. */
public final class ListSubscriptionsService implements ListSubscriptionsUseCase {
  private final WebhookSubscriptionStore store;
  private final ManagedSubscriptions managed;

  public ListSubscriptionsService(WebhookSubscriptionStore store, ManagedSubscriptions managed) {
    this.store = store;
    this.managed = managed;
  }

  @Override
  public List<WebhookSubscription> list(OrgContext context) {
    return store.list(context.org().id()).stream()
        .filter(subscription -> managed.mayManage(context, subscription)).toList();
  }
}
