package io.floe.application.service.webhooks;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.CreatedSubscription;
import io.floe.application.model.Invalid;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.in.webhooks.CreateSubscriptionUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Creates a subscription owned by the caller, to a webhook URL or a Kafka topic, with a new
 * secret that signs its deliveries (a Kafka record carries the same signature headers). Org
 * admins may subscribe to anything; any other member only to a namespace (or a table in it) it
 * may read, since a subscription is a standing read of that namespace. Either way a delivery carries only what the
 * owner may read when it is made. An org holds at most {@link #MAX_PER_ORG} subscriptions, and one
 * principal owns at most {@link #MAX_PER_PRINCIPAL} of them, so that one member cannot take the
 * org's whole allowance (each subscription is work for the delivery workers).
 */
public final class CreateSubscriptionService implements CreateSubscriptionUseCase {
  static final int MAX_PER_ORG = 100;
  static final int MAX_PER_PRINCIPAL = 20;

  private final WebhookSubscriptionStore store;
  private final WebhookTargets targets;
  private final NamespaceStore namespaces;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;
  private final IdGenerator ids;
  private final Clock clock;

  public CreateSubscriptionService(WebhookSubscriptionStore store, WebhookTargets targets,
      NamespaceStore namespaces, AccessPolicy policy, ChangePublisher publisher, IdGenerator ids,
      Clock clock) {
    this.store = store;
    this.targets = targets;
    this.namespaces = namespaces;
    this.policy = policy;
    this.publisher = publisher;
    this.ids = ids;
    this.clock = clock;
  }

  @Override
  public CreatedSubscription create(OrgContext context, SubscriptionTargetRequest request,
      WebhookFilter filter) {
    requireMayFollow(context, filter);
    SubscriptionTarget target = targets.parse(request);
    Optional<String> kafkaPassword = request instanceof SubscriptionTargetRequest.Kafka kafka
        ? kafka.password() : Optional.empty();
    List<WebhookSubscription> existing = store.list(context.org().id());
    if (existing.size() >= MAX_PER_ORG) {
      throw Invalid.because("the org has " + MAX_PER_ORG
          + " subscriptions already, the most it may have");
    }
    UUID caller = context.caller().principal().id();
    if (existing.stream().filter(found -> found.ownerId().equals(caller)).count()
        >= MAX_PER_PRINCIPAL) {
      throw Invalid.because("you own " + MAX_PER_PRINCIPAL + " subscriptions in this org "
          + "already, the most one principal may own; delete one first");
    }
    UUID id = ids.newId();
    String secret = WebhookSignature.secret(ids.randomBytes(WebhookSignature.KEY_BYTES));
    AuditedChange change = AuditedChange.of(AuditAction.SUBSCRIPTION_CREATE,
        AuditTarget.Kind.SUBSCRIPTION, id).with(target instanceof SubscriptionTarget.Webhook
            ? "url" : "kafka", target.describe());
    return new CreatedSubscription(publisher.publishResultOf(context, change,
        () -> store.create(id, context.org().id(), caller, target,
            filter, secret, kafkaPassword, clock.instant())), secret);
  }

  private void requireMayFollow(OrgContext context, WebhookFilter filter) {
    if (context.isAdmin()) {
      return;
    }
    String name = filter.namespace().orElseThrow(() -> new ForbiddenException(
        "Only org admins may subscribe to the whole org; subscribe to a namespace you may read"));
    var namespace = namespaces.findLive(context.org().id(), new CatalogName(name))
        .filter(found -> policy.canSee(context, found))
        .orElseThrow(() -> new NotFoundException("Namespace does not exist: %s", name));
    policy.require(context, Action.READ, namespace);
  }
}
