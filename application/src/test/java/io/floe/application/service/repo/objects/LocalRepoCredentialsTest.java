package io.floe.application.service.repo.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.CredentialVendor.VendedCredentials;
import io.floe.application.port.out.inmemory.MovableClock;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LocalRepoCredentialsTest {
  private static final byte[] KEY = new byte[32];
  private static final UUID PRINCIPAL = UUID.randomUUID();
  private static final BucketConfig BUCKET = new BucketConfig(UUID.randomUUID(),
      UUID.randomUUID(), new CatalogName("default"), StoragePlatform.LOCAL, "/srv/buckets/x",
      StoragePath.root(), Optional.empty(), Optional.empty(), false, BucketCredentials.none(),
      true);
  private static final StoragePath PREFIX = new StoragePath("abcd1234_weather");

  static {
    Arrays.fill(KEY, (byte) 7);
  }

  private final MovableClock clock = new MovableClock();
  private final LocalRepoCredentials credentials =
      new LocalRepoCredentials(KEY, clock, Duration.ofHours(1));

  @Test
  void anIssuedKeyOpensToItsGrantAndItsSecretIsTheOneIssued() {
    VendedCredentials vended = credentials.issue(BUCKET, PREFIX, Access.READ_WRITE, PRINCIPAL);
    String keyId = vended.config().get("s3.access-key-id");

    assertThat(credentials.open(keyId)).contains(new LocalRepoCredentials.Grant(BUCKET.id(),
        PREFIX, Access.READ_WRITE, MovableClock.START.plus(Duration.ofHours(1)), PRINCIPAL));
    assertThat(credentials.secretOf(keyId)).isEqualTo(vended.config().get("s3.secret-access-key"));
    assertThat(vended.expiresAt()).isEqualTo(MovableClock.START.plus(Duration.ofHours(1)));
    assertThat(keyId).startsWith("FLOE").doesNotContain("/").doesNotContain("=");
  }

  @Test
  void aKeyOpensNothingOnceItExpired() {
    String keyId = keyId(Access.READ_ONLY);
    clock.advance(Duration.ofMinutes(59));
    assertThat(credentials.open(keyId)).map(LocalRepoCredentials.Grant::access)
        .contains(Access.READ_ONLY);
    clock.advance(Duration.ofMinutes(1));
    assertThat(credentials.open(keyId)).isEmpty();
  }

  @Test
  void anAlteredKeyOrOneAnotherServerKeyMadeOpensNothing() {
    String keyId = keyId(Access.READ_ONLY);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (int i = 4; i < keyId.length(); i++) {
      // The character whose highest bit differs: it changes a byte wherever it stands.
      char replacement = alphabet.charAt(alphabet.indexOf(keyId.charAt(i)) ^ 32);
      String altered = keyId.substring(0, i) + replacement + keyId.substring(i + 1);
      assertThat(credentials.open(altered)).as("changed at %d", i).isEmpty();
    }
    byte[] otherKey = KEY.clone();
    otherKey[0] ^= 1;
    assertThat(new LocalRepoCredentials(otherKey, clock, Duration.ofHours(1)).open(keyId))
        .isEmpty();
    assertThat(new LocalRepoCredentials(otherKey, clock, Duration.ofHours(1)).secretOf(keyId))
        .isNotEqualTo(credentials.secretOf(keyId));
  }

  @Test
  void whatFloeDidNotIssueOpensNothing() {
    assertThat(credentials.open(null)).isEmpty();
    assertThat(credentials.open("")).isEmpty();
    assertThat(credentials.open("AKIAIOSFODNN7EXAMPLE")).isEmpty();
    assertThat(credentials.open("FLOE")).isEmpty();
    assertThat(credentials.open("FLOE!!not-base64!!")).isEmpty();
    assertThat(credentials.open("ema_" + "0".repeat(64))).isEmpty();
    assertThat(credentials.open("FLOE" + "A".repeat(10_000))).isEmpty();
  }

  private String keyId(Access access) {
    return credentials.issue(BUCKET, PREFIX, access, PRINCIPAL).config().get("s3.access-key-id");
  }
}
