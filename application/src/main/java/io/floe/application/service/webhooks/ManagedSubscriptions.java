package io.floe.application.service.webhooks;

import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import java.util.UUID;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Who may manage a subscription: its owner and the org's admins. For anyone else it does not
 * exist (404), so subscription ids tell nothing about other principals' subscriptions.
 */
public final class ManagedSubscriptions {
  private final WebhookSubscriptionStore store;

  public ManagedSubscriptions(WebhookSubscriptionStore store) {
    this.store = store;
  }

  public boolean mayManage(OrgContext context, WebhookSubscription subscription) {
    return context.isAdmin() || subscription.ownerId().equals(context.caller().principal().id());
  }

  /** The subscription {@code id}, if the caller may manage it; else a 404. */
  public WebhookSubscription require(OrgContext context, UUID id) {
    return store.find(context.org().id(), id).filter(found -> mayManage(context, found))
        .orElseThrow(() -> new NotFoundException("No subscription %s", id));
  }
}
