package io.floe.application.port.in.webhooks;

import io.floe.application.model.WebhookSubscription;
import io.floe.application.security.OrgContext;
import java.util.List;

/** The org's subscriptions the caller may manage: all of them for admins, else its own. */
public interface ListSubscriptionsUseCase {
  List<WebhookSubscription> list(OrgContext context);
}
