package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.WebSessionStore;
import io.floe.application.port.out.WebSessionStore.Found;
import io.floe.domain.ApiToken;
import io.floe.domain.Principal;
import io.floe.domain.WebSession;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link WebSessionStore}: a session is found by its secret's hash only, together with the API
 * token it was signed in with as that token is now (so a revoked token ends the session); signing
 * out keeps the first time; expired sessions are forgotten, live ones are not.
 */
public abstract class WebSessionStoreContract extends PortContract {
  private WebSessionStore sessions() {
    return ports().webSessions();
  }

  /** A secret hash no other test of the shared database uses. */
  private static String secretHash(String name) {
    return ApiToken.hash(name + "-" + UUID.randomUUID());
  }

  private WebSession session(Principal user, String secretHash, Optional<UUID> tokenId,
      Instant expiresAt) {
    return new WebSession(UUID.randomUUID(), user.id(), secretHash, tokenId, "csrf-" + secretHash,
        fixture.now, expiresAt, Optional.empty());
  }

  private ApiToken token(Principal user) {
    ApiToken token = new ApiToken(UUID.randomUUID(), user.id(), secretHash("ema"), fixture.now,
        Optional.empty(), Optional.empty());
    ports().principals().insertToken(token);
    return token;
  }

  @Test
  void aSessionIsFoundByItsSecretHashWithItsTokenAsItIsNow() {
    Principal user = fixture.user("ada");
    ApiToken token = token(user);
    String withTokenHash = secretHash("s1");
    String withoutTokenHash = secretHash("s2");
    WebSession withToken = session(user, withTokenHash, Optional.of(token.id()),
        fixture.now.plusSeconds(3600));
    WebSession withoutToken = session(user, withoutTokenHash, Optional.empty(),
        fixture.now.plusSeconds(60));
    sessions().insert(withToken);
    sessions().insert(withoutToken);

    assertThat(sessions().findBySecretHash(withTokenHash))
        .contains(new Found(withToken, Optional.of(token)));
    assertThat(sessions().findBySecretHash(withoutTokenHash))
        .contains(new Found(withoutToken, Optional.empty()));
    assertThat(sessions().findBySecretHash(secretHash("never-issued"))).isEmpty();

    ports().identities().revokeToken(token.id(), fixture.now.plusSeconds(1));
    assertThat(sessions().findBySecretHash(withTokenHash).orElseThrow().apiToken()
        .orElseThrow().revokedAt()).contains(fixture.now.plusSeconds(1));
  }

  @Test
  void aSecretHashBelongsToOneSession() {
    Principal user = fixture.user("ada");
    String hash = secretHash("shared");
    sessions().insert(session(user, hash, Optional.empty(), fixture.now.plusSeconds(60)));
    assertThatThrownBy(() -> sessions().insert(
        session(user, hash, Optional.empty(), fixture.now.plusSeconds(60))))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void signingOutKeepsTheFirstTime() {
    Principal user = fixture.user("ada");
    String hash = secretHash("s");
    sessions().insert(session(user, hash, Optional.empty(), fixture.now.plusSeconds(3600)));
    sessions().end(hash, fixture.now.plusSeconds(5));
    sessions().end(hash, fixture.now.plusSeconds(9));
    WebSession ended = sessions().findBySecretHash(hash).orElseThrow().session();
    assertThat(ended.endedAt()).contains(fixture.now.plusSeconds(5));
    assertThat(ended.isActiveAt(fixture.now.plusSeconds(6))).isFalse();
  }

  @Test
  void expiredSessionsAreForgottenAndLiveOnesKept() {
    Principal user = fixture.user("ada");
    String shortLived = secretHash("short");
    String longLived = secretHash("long");
    sessions().insert(session(user, shortLived, Optional.empty(), fixture.now.plusSeconds(60)));
    sessions().insert(session(user, longLived, Optional.empty(), fixture.now.plusSeconds(3600)));

    assertThat(sessions().deleteExpired(fixture.now.plusSeconds(61))).isGreaterThanOrEqualTo(1);
    assertThat(sessions().findBySecretHash(shortLived)).isEmpty();
    assertThat(sessions().findBySecretHash(longLived)).isPresent();
  }

  @Test
  void aSessionRollsBackWithItsTransaction() {
    Principal user = fixture.user("ada");
    String hash = secretHash("s");
    assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
      sessions().insert(session(user, hash, Optional.empty(), fixture.now.plusSeconds(60)));
      throw new IllegalStateException("the sign-in failed");
    })).hasMessageContaining("failed");
    assertThat(sessions().findBySecretHash(hash)).isEmpty();
  }
}
