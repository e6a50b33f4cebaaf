package io.floe.application.port.in.webhooks;

import io.floe.application.model.SubscriptionDetails;
import io.floe.application.security.OrgContext;
import java.util.UUID;

/** One subscription with its delivery log; 404 unless the caller may manage it. */
public interface GetSubscriptionUseCase {
  SubscriptionDetails get(OrgContext context, UUID id);
}
