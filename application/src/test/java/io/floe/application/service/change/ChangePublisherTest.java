package io.floe.application.service.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import io.floe.domain.Role;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/**
 * Idempotency: a change sent again by the same principal with the same key and request gets the
 * result it got the first time, without changing anything again; the key with another request is
 * refused (422); another principal's key of the same name is another key; a change that failed
 * leaves no record, so the client may retry it.
 */
class ChangePublisherTest {
  private final Testbed bed = new Testbed();
  private final ChangePublisher publisher = bed.publisher();
  private final OrgContext keyed = Testbed.withKey(bed.admin, "key-1", "POST /things 1f2e");

  /** What the audit log records of a change here. */
  private static AuditedChange created(String name) {
    return AuditedChange.of(AuditAction.REPO_CREATE, AuditTarget.Kind.REPO, name);
  }

  private List<AuditEntry> audited() {
    return bed.store.audit().list(bed.org.id(), AuditQuery.all()).entries();
  }

  /** A write every change here makes: holding a name. */
  private Runnable reserve(String name) {
    return () -> bed.store.names().reserve(bed.org.id(), new CatalogName(name), OwnerKind.REPO,
        UUID.randomUUID());
  }

  @Test
  void aChangeWithoutAKeyIsPublishedAndNeverReplayed() {
    assertThat(publisher.publish(bed.admin, created("plain"), "result", reserve("plain")))
        .isEqualTo("result");
    assertThat(bed.nameIsHeld("plain")).isTrue();
    assertThat(publisher.replay(bed.admin, String.class)).isEmpty();
  }

  @Test
  void aChangeIsRecordedInTheAuditLogWithWhoMadeItAndForWhichRequest() {
    publisher.publish(keyed, created("logged"), "done", reserve("logged"));
    assertThat(audited()).singleElement().satisfies(entry -> {
      assertThat(entry.principalId()).isEqualTo(keyed.caller().principal().id());
      assertThat(entry.action()).isEqualTo("repo.create");
      assertThat(entry.targetKind()).isEqualTo("repo");
      assertThat(entry.targetName()).isEqualTo("logged");
      assertThat(entry.requestId()).isEqualTo("request-key-1");
      assertThat(entry.recordedAt()).isEqualTo(bed.clock.instant());
    });
    // A replay changes nothing, so it records nothing either.
    assertThat(publisher.replay(keyed, String.class)).isPresent();
    assertThat(audited()).hasSize(1);
  }

  @Test
  void theSameCallerSendingTheSameRequestAgainGetsTheRecordedResult() {
    assertThat(publisher.replay(keyed, String.class)).isEmpty();
    publisher.publish(keyed, created("thing"), "created thing 7", reserve("thing"));
    assertThat(publisher.replay(keyed, String.class))
        .contains(new ChangePublisher.Replay<>("created thing 7"));
  }

  @Test
  void aChangeWithoutAResultReplaysAsDone() {
    publisher.publish(keyed, created("void"), reserve("void"));
    assertThat(publisher.replay(keyed, Void.class)).contains(new ChangePublisher.Replay<>(null));
  }

  @Test
  void theKeyWithAnotherRequestIsRefused() {
    publisher.publish(keyed, created("first"), "first", reserve("first"));
    OrgContext otherBody = Testbed.withKey(bed.admin, "key-1", "POST /things 9999");
    assertThatThrownBy(() -> publisher.replay(otherBody, String.class))
        .isInstanceOf(UnprocessableEntityException.class).hasMessageContaining("key-1");
  }

  @Test
  void anotherPrincipalsKeyOfTheSameNameNeverReplays() {
    publisher.publish(keyed, created("mine"), "mine", reserve("mine"));
    OrgContext other = Testbed.withKey(bed.member("eve", Role.ADMIN), "key-1",
        "POST /things 1f2e");
    assertThat(publisher.replay(other, String.class)).isEmpty();
    publisher.publish(other, created("theirs"), "theirs", reserve("theirs"));
    assertThat(publisher.replay(other, String.class))
        .contains(new ChangePublisher.Replay<>("theirs"));
    assertThat(publisher.replay(keyed, String.class))
        .contains(new ChangePublisher.Replay<>("mine"));
  }

  @Test
  void aFailedChangeLeavesNoRecordAndNoWrite() {
    assertThatThrownBy(() -> publisher.publish(keyed, created("half"), "never", () -> {
      reserve("half").run();
      throw new IllegalStateException("the change failed");
    })).hasMessage("the change failed");
    assertThat(publisher.replay(keyed, String.class)).isEmpty();
    assertThat(bed.nameIsHeld("half")).isFalse();
    assertThat(audited()).isEmpty();
    // The retry with the same key is a new attempt.
    publisher.publish(keyed, created("half"), "retried", reserve("half"));
    assertThat(publisher.replay(keyed, String.class))
        .contains(new ChangePublisher.Replay<>("retried"));
    assertThat(audited()).extracting(AuditEntry::targetName).containsExactly("half");
  }

  @Test
  void aChangeWhoseKeyAnotherRequestRecordedMeanwhileFailsAndRollsBack() {
    // A concurrent request with the same key published first, between replay and publish.
    bed.store.idempotency().record(bed.org.id(), bed.admin.caller().principal().id(), "key-1",
        new IdempotencyStore.Recorded("POST /things 1f2e", bed.codec.encode("winner")),
        bed.clock.instant().plus(Testbed.KEY_LIFETIME), bed.clock.instant());
    assertThatThrownBy(
        () -> publisher.publish(keyed, created("loser"), "loser", reserve("loser")))
        .isInstanceOf(CommitFailedException.class);
    assertThat(bed.nameIsHeld("loser")).isFalse();
    assertThat(audited()).isEmpty();
    assertThat(publisher.replay(keyed, String.class))
        .contains(new ChangePublisher.Replay<>("winner"));
  }

  @Test
  void aKeyIsForgottenAfterItsLifetimeAndCanBeUsedAgain() {
    publisher.publish(keyed, created("old"), "old", reserve("old"));
    bed.clock.advance(Testbed.KEY_LIFETIME);
    assertThat(publisher.replay(keyed, String.class)).isEmpty();
    publisher.publish(keyed, created("new"), "new", reserve("new"));
    assertThat(publisher.replay(keyed, String.class))
        .contains(new ChangePublisher.Replay<>("new"));
    assertThat(bed.store.idempotency().find(bed.org.id(), bed.admin.caller().principal().id(),
        "key-1", bed.clock.instant())).map(IdempotencyStore.Recorded::requestFingerprint)
        .isEqualTo(Optional.of("POST /things 1f2e"));
  }
}
