package io.floe.application.port.in.webhooks;

import io.floe.application.model.CreatedSubscription;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.model.WebhookFilter;
import io.floe.application.security.OrgContext;

/**
 * Subscribes {@code target} (a webhook URL or a Kafka topic) to the org's changes that match
 * {@code filter}; the caller owns it. Whether the target may be sent to is decided here, not by
 * the caller.
 */
public interface CreateSubscriptionUseCase {
  CreatedSubscription create(OrgContext context, SubscriptionTargetRequest target,
      WebhookFilter filter);
}
