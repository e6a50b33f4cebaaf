package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.IdempotencyStore.Recorded;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link IdempotencyStore}: a key's record belongs to one principal in one org; it is replayed
 * until it expires, by the caller's clock; a live record is never overwritten, an expired one is;
 * a record joins the caller's transaction.
 */
public abstract class IdempotencyStoreContract extends PortContract {
  private IdempotencyStore idempotency() {
    return ports().idempotency();
  }

  private UUID principal(String name) {
    return fixture.user(name).id();
  }

  @Test
  void idempotencyRecordsReplayUntilTheyExpire() {
    Instant now = fixture.now;
    UUID caller = principal("caller");
    Recorded first = new Recorded("POST /t a1", "{}");
    assertThat(idempotency().record(fixture.org.id(), caller, "key-1", first,
        now.plusSeconds(60), now)).isTrue();
    assertThat(idempotency().record(fixture.org.id(), caller, "key-1",
        new Recorded("POST /t b2", "{\"other\":1}"), now.plusSeconds(60), now)).isFalse();
    assertThat(idempotency().find(fixture.org.id(), caller, "key-1", now)).contains(first);
    assertThat(idempotency().find(fixture.org.id(), caller, "key-1", now.plusSeconds(60)))
        .isEmpty();
    assertThat(idempotency().deleteExpired(now.plusSeconds(61))).isGreaterThanOrEqualTo(1);
    // Deleted, not merely expired: not even a reader from before the expiry finds it.
    assertThat(idempotency().find(fixture.org.id(), caller, "key-1", now)).isEmpty();
  }

  @Test
  void anIdempotencyKeyBelongsToOnePrincipal() {
    Instant now = fixture.now;
    UUID caller = principal("caller");
    UUID other = principal("other");
    Recorded mine = new Recorded("POST /t a1", "{\"mine\":1}");
    assertThat(idempotency().record(fixture.org.id(), caller, "shared", mine,
        now.plusSeconds(60), now)).isTrue();
    assertThat(idempotency().find(fixture.org.id(), other, "shared", now)).isEmpty();
    Recorded theirs = new Recorded("POST /t a1", "{}");
    assertThat(idempotency().record(fixture.org.id(), other, "shared", theirs,
        now.plusSeconds(60), now)).isTrue();
    assertThat(idempotency().find(fixture.org.id(), caller, "shared", now)).contains(mine);
    assertThat(idempotency().find(fixture.org.id(), other, "shared", now)).contains(theirs);
  }

  @Test
  void anIdempotencyKeyBelongsToOneOrg() {
    Principal caller = fixture.user("caller");
    UUID otherOrg = fixture.newOrg().id();
    idempotency().record(fixture.org.id(), caller.id(), "k", new Recorded("f", "r"),
        fixture.now.plusSeconds(60), fixture.now);
    assertThat(idempotency().find(otherOrg, caller.id(), "k", fixture.now)).isEmpty();
  }

  @Test
  void anExpiredRecordIsReplacedByTheCallersClock() {
    UUID caller = principal("caller");
    Instant expiry = fixture.now.plusSeconds(60);
    idempotency().record(fixture.org.id(), caller, "k", new Recorded("old", "1"), expiry,
        fixture.now);
    Recorded fresh = new Recorded("new", "2");
    // Expired for the caller, though the database's own clock has not got there.
    assertThat(idempotency().record(fixture.org.id(), caller, "k", fresh,
        expiry.plusSeconds(60), expiry)).isTrue();
    assertThat(idempotency().find(fixture.org.id(), caller, "k", expiry)).contains(fresh);
  }

  @Test
  void aRecordRollsBackWithItsTransaction() {
    UUID caller = principal("caller");
    assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
      idempotency().record(fixture.org.id(), caller, "k", new Recorded("f", "r"),
          fixture.now.plusSeconds(60), fixture.now);
      throw new IllegalStateException("the change failed");
    })).hasMessageContaining("failed");
    assertThat(idempotency().find(fixture.org.id(), caller, "k", fixture.now)).isEmpty();
  }
}
