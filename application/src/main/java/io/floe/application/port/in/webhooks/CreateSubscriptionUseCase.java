package io.floe.application.port.in.webhooks;

import io.floe.application.model.CreatedSubscription;
import io.floe.application.model.WebhookFilter;
import io.floe.application.security.OrgContext;

/**
 * Subscribes {@code url} to the org's changes that match {@code filter}; the caller owns it.
 * Whether the URL may be sent to is decided here, not by the caller.
 */
public interface CreateSubscriptionUseCase {
  CreatedSubscription create(OrgContext context, String url, WebhookFilter filter);
}
