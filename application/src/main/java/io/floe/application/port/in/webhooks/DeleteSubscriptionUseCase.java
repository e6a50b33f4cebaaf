package io.floe.application.port.in.webhooks;

import io.floe.application.security.OrgContext;
import java.util.UUID;

/** Ends a subscription: nothing more is delivered to it. */
public interface DeleteSubscriptionUseCase {
  void delete(OrgContext context, UUID id);
}
