package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.PrincipalStore;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link PrincipalStore}: principals, their memberships, and tokens found by the hash of their
 * secret only; a token's use is written at most once a minute.
 */
public abstract class PrincipalStoreContract extends PortContract {
  private PrincipalStore principals() {
    return ports().principals();
  }

  @Test
  void tokensAreFoundByHashOnly() {
    Principal admin = new Principal(UUID.randomUUID(), Principal.Kind.API_CLIENT, "ci");
    principals().insertPrincipal(admin);
    String secret = "ema_secret_" + UUID.randomUUID();
    ApiToken token = new ApiToken(UUID.randomUUID(), admin.id(), ApiToken.hash(secret),
        fixture.now, Optional.empty(), Optional.empty());
    principals().insertToken(token);
    assertThat(principals().findTokenByHash(ApiToken.hash(secret))).contains(token);
    assertThat(principals().findTokenByHash(secret)).isEmpty();
    principals().touchToken(token.id(), fixture.now);
  }

  @Test
  void aTokenKeepsItsExpiryAndRevocation() {
    Principal user = fixture.user("ada");
    ApiToken token = new ApiToken(UUID.randomUUID(), user.id(),
        ApiToken.hash("ema_" + UUID.randomUUID()), fixture.now,
        Optional.of(fixture.now.plusSeconds(3600)), Optional.of(fixture.now.plusSeconds(60)));
    principals().insertToken(token);
    assertThat(principals().findTokenByHash(token.secretHash())).contains(token);
  }

  @Test
  void aSecretHashBelongsToOneToken() {
    Principal user = fixture.user("ada");
    String hash = ApiToken.hash("ema_" + UUID.randomUUID());
    principals().insertToken(new ApiToken(UUID.randomUUID(), user.id(), hash, fixture.now,
        Optional.empty(), Optional.empty()));
    assertThatThrownBy(() -> principals().insertToken(new ApiToken(UUID.randomUUID(), user.id(),
        hash, fixture.now, Optional.empty(), Optional.empty())))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void principalsAndMembershipsRoundTrip() {
    Principal user = new Principal(UUID.randomUUID(), Principal.Kind.USER, "grace");
    principals().insertPrincipal(user);
    principals().insertMembership(new Membership(fixture.org.id(), user.id(), Role.ADMIN));
    assertThat(principals().findPrincipal(user.id())).contains(user);
    assertThat(principals().findPrincipal(UUID.randomUUID())).isEmpty();
    assertThat(principals().findMembership(fixture.org.id(), user.id()))
        .contains(new Membership(fixture.org.id(), user.id(), Role.ADMIN));
    assertThat(principals().findMembership(fixture.newOrg().id(), user.id())).isEmpty();
  }

  @Test
  void aMembershipIsOnePerOrg() {
    Principal user = fixture.user("ada");
    assertThatThrownBy(() -> principals().insertMembership(
        new Membership(fixture.org.id(), user.id(), Role.ADMIN)))
        .isInstanceOf(RuntimeException.class);
    assertThat(principals().findMembership(fixture.org.id(), user.id()).orElseThrow().role())
        .isEqualTo(Role.MEMBER);
  }

  @Test
  void aTokensUseIsWrittenAtMostOnceAMinute() {
    Principal user = fixture.user("ada");
    ApiToken token = new ApiToken(UUID.randomUUID(), user.id(),
        ApiToken.hash("ema_" + UUID.randomUUID()), fixture.now, Optional.empty(),
        Optional.empty());
    principals().insertToken(token);
    principals().touchToken(token.id(), fixture.now);
    principals().touchToken(token.id(), fixture.now.plusSeconds(30));
    assertThat(lastUsed(token)).contains(fixture.now);
    principals().touchToken(token.id(), fixture.now.plusSeconds(61));
    assertThat(lastUsed(token)).contains(fixture.now.plusSeconds(61));
  }

  private Optional<java.time.Instant> lastUsed(ApiToken token) {
    return ports().identities().token(fixture.org.id(), token.id()).orElseThrow().lastUsedAt();
  }
}
