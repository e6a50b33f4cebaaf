package io.floe.application.service.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.CreatedSubscription;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.port.out.inmemory.InMemoryWebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/**
 * Managing webhook subscriptions on the fakes: the caller owns what it creates, with a fresh
 * secret; admins subscribe to anything, members only to a namespace they may read; a URL the
 * target rule refuses is refused before anything is stored; an org holds at most 100; only the
 * owner and the org's admins see, list, resume and delete a subscription (for anyone else it does
 * not exist); each change is audited; a resumed subscription is due at once with its failures
 * forgotten.
 */
class SubscriptionServicesTest {
  private static final String URL = "https://hooks.example.com/floe";

  private final Testbed bed = new Testbed();
  private final InMemoryWebhookSubscriptionStore store =
      new InMemoryWebhookSubscriptionStore(FeedPosition.START);
  private final ManagedSubscriptions managed = new ManagedSubscriptions(store);
  private final CreateSubscriptionService create = new CreateSubscriptionService(store,
      new WebhookTargets(new StorageNetwork() {
        @Override
        public Reach reach(String host) {
          return switch (host) {
            case "127.0.0.1" -> Reach.PRIVATE;
            case "nowhere.invalid" -> Reach.UNRESOLVED;
            default -> Reach.PUBLIC;
          };
        }

        @Override
        public List<URI> credentialServers(BucketConfig bucket) {
          return List.of();
        }
      }, false), bed.store.namespaces(), bed.policy(), bed.publisher(), bed.ids, bed.clock);
  private final GetSubscriptionService get = new GetSubscriptionService(store, managed);
  private final ListSubscriptionsService list = new ListSubscriptionsService(store, managed);
  private final DeleteSubscriptionService delete = new DeleteSubscriptionService(store, managed,
      bed.publisher());
  private final ResumeSubscriptionService resume = new ResumeSubscriptionService(store, managed,
      bed.publisher());
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final Namespace hr = bed.namespace("hr", Visibility.PRIVATE);
  private final OrgContext analyst = bed.member("analyst", Role.MEMBER);
  private final OrgContext other = bed.member("other", Role.MEMBER);

  SubscriptionServicesTest() {
    bed.grant(analyst.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(other.caller().principal().id(), sales, Optional.empty(), Action.READ);
  }

  private static WebhookFilter namespace(String name) {
    return new WebhookFilter(Optional.of(name), Optional.empty(), Set.of("table.commit"));
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  @Test
  void aMemberSubscribesToANamespaceItReadsAndOwnsTheSubscriptionWithItsSecret() {
    CreatedSubscription created = webhook(analyst, URL, namespace("sales"));

    WebhookSubscription subscription = created.subscription();
    assertThat(subscription.ownerId()).isEqualTo(analyst.caller().principal().id());
    assertThat(subscription.target()).isEqualTo(new SubscriptionTarget.Webhook(URI.create(URL)));
    assertThat(subscription.filter()).isEqualTo(namespace("sales"));
    assertThat(subscription.createdAt()).isEqualTo(bed.clock.instant());
    assertThat(created.secret()).isNotBlank().isEqualTo(store.secret(subscription.id()));
    assertThat(webhook(analyst, URL, namespace("sales")).secret())
        .isNotEqualTo(created.secret());
    assertThat(audit()).first().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("subscription.create");
      assertThat(entry.targetName()).isEqualTo(subscription.id().toString());
      assertThat(entry.details()).containsEntry("url", URL);
      assertThat(entry.details().toString()).doesNotContain(created.secret());
    });
  }

  @Test
  void onlyAdminsSubscribeToTheWholeOrgAndAMemberNeverToANamespaceItCannotRead() {
    CatalogObject people = bed.table(hr, "people");
    OrgContext tableReader = bed.member("table-reader", Role.MEMBER);
    bed.grant(tableReader.caller().principal().id(), hr, Optional.of(people), Action.READ);

    assertThatThrownBy(() -> webhook(analyst, URL, WebhookFilter.ALL))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> webhook(analyst, URL, namespace("hr")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> webhook(analyst, URL, namespace("missing")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> webhook(tableReader, URL, namespace("hr")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(store.list(bed.org.id())).isEmpty();
    assertThat(audit()).isEmpty();

    assertThat(webhook(bed.admin, URL, WebhookFilter.ALL).subscription().filter())
        .isEqualTo(WebhookFilter.ALL);
    assertThat(webhook(bed.admin, URL, namespace("hr")).subscription().ownerId())
        .isEqualTo(bed.admin.caller().principal().id());
  }

  @Test
  void aUrlTheTargetRuleRefusesStoresNothing() {
    for (String refused : List.of("ftp://hooks.example.com/x", "https://user@hooks.example.com/",
        "http://127.0.0.1:8080/hook", "https://nowhere.invalid/hook", "not a url", "")) {
      assertThatThrownBy(() -> webhook(bed.admin, refused, WebhookFilter.ALL))
          .as(refused).isInstanceOf(UnprocessableEntityException.class);
    }
    assertThat(store.list(bed.org.id())).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void anOrgHoldsAtMostAHundredSubscriptions() {
    int owners = CreateSubscriptionService.MAX_PER_ORG / CreateSubscriptionService.MAX_PER_PRINCIPAL;
    for (int owner = 0; owner < owners; owner++) {
      OrgContext admin = bed.member("admin-" + owner, Role.ADMIN);
      for (int i = 0; i < CreateSubscriptionService.MAX_PER_PRINCIPAL; i++) {
        webhook(admin, URL + "/" + owner + "/" + i, WebhookFilter.ALL);
      }
    }

    assertThatThrownBy(() -> webhook(bed.admin, URL, WebhookFilter.ALL))
        .isInstanceOf(UnprocessableEntityException.class).hasMessageContaining("100");
    assertThat(store.count(bed.org.id())).isEqualTo(CreateSubscriptionService.MAX_PER_ORG);
  }

  /**
   * One member (a reader of one namespace, say) cannot take the org's whole allowance: it owns
   * at most 20, refused with a 422 and stored nothing, audited nothing; another member and the
   * admins still subscribe, and deleting one of its own makes room again.
   */
  @Test
  void aPrincipalOwnsAtMostTwentySubscriptionsInAnOrg() {
    List<WebhookSubscription> owned = new java.util.ArrayList<>();
    for (int i = 0; i < CreateSubscriptionService.MAX_PER_PRINCIPAL; i++) {
      owned.add(webhook(analyst, URL + "/" + i, namespace("sales")).subscription());
    }
    int audited = audit().size();

    assertThatThrownBy(() -> webhook(analyst, URL, namespace("sales")))
        .isInstanceOf(UnprocessableEntityException.class)
        .hasMessageContaining("you own 20 subscriptions in this org already");
    assertThat(store.count(bed.org.id())).isEqualTo(CreateSubscriptionService.MAX_PER_PRINCIPAL);
    assertThat(audit()).hasSize(audited);

    webhook(other, URL, namespace("sales"));
    webhook(bed.admin, URL, WebhookFilter.ALL);
    delete.delete(analyst, owned.get(0).id());
    assertThat(webhook(analyst, URL, namespace("sales")).subscription().ownerId())
        .isEqualTo(analyst.caller().principal().id());
  }

  @Test
  void theOwnerAndAdminsSeeASubscriptionAndForAnyoneElseItDoesNotExist() {
    WebhookSubscription mine = webhook(analyst, URL, namespace("sales")).subscription();
    WebhookSubscription theirs = webhook(other, URL, namespace("sales")).subscription();
    WebhookSubscription admins = webhook(bed.admin, URL, WebhookFilter.ALL).subscription();

    assertThat(list.list(analyst)).extracting(WebhookSubscription::id)
        .containsExactly(mine.id());
    assertThat(list.list(bed.admin)).extracting(WebhookSubscription::id)
        .containsExactly(mine.id(), theirs.id(), admins.id());
    assertThat(get.get(analyst, mine.id()).subscription().id()).isEqualTo(mine.id());
    assertThat(get.get(bed.admin, mine.id()).subscription().id()).isEqualTo(mine.id());
    assertThatThrownBy(() -> get.get(analyst, theirs.id()))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> get.get(analyst, UUID.randomUUID()))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> delete.delete(analyst, theirs.id()))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> resume.resume(analyst, admins.id()))
        .isInstanceOf(NotFoundException.class);
    assertThat(store.list(bed.org.id())).hasSize(3);
    assertThat(audit()).extracting(AuditEntry::action).containsOnly("subscription.create");
  }

  @Test
  void theDeliveryLogComesWithTheSubscriptionNewestFirst() {
    WebhookSubscription mine = webhook(analyst, URL, namespace("sales")).subscription();
    UUID firstEvent = UUID.randomUUID();
    UUID secondEvent = UUID.randomUUID();
    store.failed(mine.id(), 1, bed.clock.instant().plusSeconds(1),
        Optional.empty(), attempt(firstEvent, 500));
    bed.clock.advance(Duration.ofSeconds(5));
    store.failed(mine.id(), 2, bed.clock.instant().plusSeconds(2),
        Optional.empty(), attempt(secondEvent, 503));

    assertThat(get.get(analyst, mine.id()).deliveries()).extracting(DeliveryAttempt::eventId)
        .containsExactly(secondEvent, firstEvent);
  }

  @Test
  void aPausedSubscriptionResumesAtOnceWithItsFailuresForgottenAndTheResumeIsAudited() {
    WebhookSubscription mine = webhook(analyst, URL, namespace("sales")).subscription();
    store.failed(mine.id(), 10, bed.clock.instant().plus(Duration.ofHours(1)),
        Optional.of("target answered 500 ten times"), attempt(UUID.randomUUID(), 500));
    assertThat(get.get(analyst, mine.id()).subscription().state().paused()).isTrue();

    WebhookSubscription resumed = resume.resume(analyst, mine.id());

    assertThat(resumed.state().paused()).isFalse();
    assertThat(resumed.state().consecutiveFailures()).isZero();
    assertThat(resumed.state().pausedReason()).isEmpty();
    assertThat(store.due(bed.clock.instant())).extracting(WebhookSubscription::id)
        .contains(mine.id());
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("subscription.create", "subscription.resume");
    assertThat(audit().get(1).principalName()).isEqualTo("analyst");
  }

  @Test
  void theOwnerOrAnAdminDeletesASubscriptionAndItIsGoneForEveryone() {
    WebhookSubscription mine = webhook(analyst, URL, namespace("sales")).subscription();
    WebhookSubscription theirs = webhook(other, URL, namespace("sales")).subscription();

    delete.delete(analyst, mine.id());
    delete.delete(bed.admin, theirs.id());

    assertThat(store.list(bed.org.id())).isEmpty();
    assertThatThrownBy(() -> get.get(bed.admin, mine.id()))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> delete.delete(analyst, mine.id()))
        .isInstanceOf(NotFoundException.class);
    assertThat(audit()).extracting(AuditEntry::action).containsExactly("subscription.create",
        "subscription.create", "subscription.delete", "subscription.delete");
    assertThat(audit().get(3).principalName()).isEqualTo("admin");
  }

  private DeliveryAttempt attempt(UUID eventId, int status) {
    return new DeliveryAttempt(eventId, bed.clock.instant(), 1, Optional.of(status),
        Duration.ofMillis(20), Optional.of("HTTP " + status), false);
  }

  /** A subscription to a webhook URL, created through the use case. */
  private CreatedSubscription webhook(OrgContext who, String url, WebhookFilter filter) {
    return create.create(who, new SubscriptionTargetRequest.Webhook(url), filter);
  }
}
