package io.floe.application.port.in.webhooks;

import io.floe.application.model.WebhookSubscription;
import io.floe.application.security.OrgContext;
import java.util.UUID;

/** Resumes a paused subscription where it stopped, with its failures forgotten. */
public interface ResumeSubscriptionUseCase {
  WebhookSubscription resume(OrgContext context, UUID id);
}
