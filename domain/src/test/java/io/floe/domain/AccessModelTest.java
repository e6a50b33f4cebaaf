package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AccessModelTest {

  @Test
  void actionsIncludeTheWeakerOnes() {
    assertThat(Action.MANAGE.implied()).containsExactlyInAnyOrder(Action.READ, Action.WRITE,
        Action.MANAGE);
    assertThat(Action.READ.implied()).containsExactly(Action.READ);
  }

  @Test
  void aTableGrantReachesOnlyItsTable() {
    UUID namespace = UUID.randomUUID();
    UUID table = UUID.randomUUID();
    Grant grant = new Grant(UUID.randomUUID(), namespace, Optional.of(table), Action.WRITE);
    assertThat(grant.allows(Action.READ, namespace, Optional.of(table))).isTrue();
    assertThat(grant.allows(Action.READ, namespace, Optional.of(UUID.randomUUID()))).isFalse();
    assertThat(grant.allows(Action.MANAGE, namespace, Optional.of(table))).isFalse();
    assertThat(grant.allows(Action.READ, UUID.randomUUID(), Optional.of(table))).isFalse();
  }

  @Test
  void aNamespaceGrantReachesEveryTableInIt() {
    UUID namespace = UUID.randomUUID();
    Grant grant = new Grant(UUID.randomUUID(), namespace, Optional.empty(), Action.READ);
    assertThat(grant.allows(Action.READ, namespace, Optional.of(UUID.randomUUID()))).isTrue();
  }

  @Test
  void tokensAreHighEntropyPrefixedAndStoredAsHashes() {
    byte[] random = new byte[32];
    random[0] = 7;
    String secret = ApiToken.secretFrom(random);
    assertThat(secret).startsWith("ema_").hasSize(4 + 64);
    assertThat(ApiToken.hash(secret)).hasSize(64).isNotEqualTo(secret);
    assertThatThrownBy(() -> ApiToken.secretFrom(new byte[16])).hasMessageContaining("entropy");
  }

  @Test
  void revokedAndExpiredTokensAreNotUsable() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    ApiToken live = new ApiToken(UUID.randomUUID(), UUID.randomUUID(), "h", now,
        Optional.of(now.plusSeconds(60)), Optional.empty());
    assertThat(live.isUsableAt(now)).isTrue();
    assertThat(live.isUsableAt(now.plusSeconds(61))).isFalse();
    ApiToken revoked = new ApiToken(UUID.randomUUID(), UUID.randomUUID(), "h", now,
        Optional.empty(), Optional.of(now));
    assertThat(revoked.isUsableAt(now)).isFalse();
  }

  @Test
  void suppliedTokensMustLookLikeTokens() {
    ApiToken.requireWellFormed("ema_" + "a".repeat(32));
    assertThatThrownBy(() -> ApiToken.requireWellFormed("ema_short")).isInstanceOf(DomainException.class);
    assertThatThrownBy(() -> ApiToken.requireWellFormed("x".repeat(40))).isInstanceOf(DomainException.class);
  }

  @Test
  void theCommentPropertyStandsInForAMissingDescription() {
    Instant now = Instant.now();
    Namespace withComment = new Namespace(UUID.randomUUID(), UUID.randomUUID(),
        new CatalogName("ns"), UUID.randomUUID(), new StoragePath("p"),
        Map.of("comment", "from the engine"), Optional.empty(), Map.of(), Visibility.PRIVATE, now,
        now, Optional.empty());
    assertThat(withComment.effectiveDescription()).contains("from the engine");
  }

  @Test
  void icebergIsGatedPerOrg() {
    Org org = new Org(UUID.randomUUID(), new OrgName("acme"), false);
    assertThatThrownBy(org::requireIceberg).isInstanceOf(FeatureDisabledException.class)
        .hasMessageContaining("Iceberg is not enabled");
  }
}
