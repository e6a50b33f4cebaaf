package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.NameRegistry;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import io.floe.domain.Namespace;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link NameRegistry}: one set of names per org, shared by namespaces and repos and compared
 * case-insensitively; a name is released outright, or only by its holder.
 */
public abstract class NameRegistryContract extends PortContract {
  private NameRegistry names() {
    return ports().names();
  }

  @Test
  void namesAreSharedCaseInsensitively() {
    UUID namespace = UUID.randomUUID();
    assertThat(names().reserve(fixture.org.id(), new CatalogName("Obs"), OwnerKind.NAMESPACE,
        namespace)).isEmpty();
    assertThat(names().reserve(fixture.org.id(), new CatalogName("OBS"), OwnerKind.REPO,
        UUID.randomUUID()))
        .contains(new NameRegistry.Holder(OwnerKind.NAMESPACE, namespace));
    names().release(fixture.org.id(), new CatalogName("obs"));
    assertThat(names().reserve(fixture.org.id(), new CatalogName("obs"), OwnerKind.REPO,
        UUID.randomUUID())).isEmpty();
  }

  @Test
  void eachOrgHasItsOwnNames() {
    assertThat(names().reserve(fixture.org.id(), new CatalogName("shared"), OwnerKind.REPO,
        UUID.randomUUID())).isEmpty();
    assertThat(names().reserve(fixture.newOrg().id(), new CatalogName("shared"), OwnerKind.REPO,
        UUID.randomUUID())).isEmpty();
  }

  @Test
  void reservingAgainNamesTheHolderEvenWhenItIsTheSameOwner() {
    UUID owner = UUID.randomUUID();
    names().reserve(fixture.org.id(), new CatalogName("mine"), OwnerKind.REPO, owner);
    assertThat(names().reserve(fixture.org.id(), new CatalogName("MINE"), OwnerKind.REPO, owner))
        .contains(new NameRegistry.Holder(OwnerKind.REPO, owner));
  }

  @Test
  void onlyTheHolderReleasesItsNameConditionally() {
    UUID holder = UUID.randomUUID();
    names().reserve(fixture.org.id(), new CatalogName("held"), OwnerKind.NAMESPACE, holder);
    names().releaseIfHeldBy(fixture.org.id(), new CatalogName("held"), UUID.randomUUID());
    assertThat(names().reserve(fixture.org.id(), new CatalogName("held"), OwnerKind.REPO,
        UUID.randomUUID())).contains(new NameRegistry.Holder(OwnerKind.NAMESPACE, holder));
    names().releaseIfHeldBy(fixture.org.id(), new CatalogName("HELD"), holder);
    assertThat(names().reserve(fixture.org.id(), new CatalogName("held"), OwnerKind.REPO,
        UUID.randomUUID())).isEmpty();
  }

  @Test
  void aSoftDeletedHolderIsNamedWithTheEndOfItsRecoveryPeriod() {
    Namespace gone = fixture.namespace("gone");
    names().reserve(fixture.org.id(), new CatalogName("gone"), OwnerKind.NAMESPACE, gone.id());
    Instant purgeAfter = fixture.now.plus(Duration.ofDays(7));
    ports().namespaceDeletes().markDeleted(gone.id(), fixture.now, purgeAfter, false, false);

    assertThat(names().reserve(fixture.org.id(), new CatalogName("GONE"), OwnerKind.NAMESPACE,
        UUID.randomUUID())).contains(new NameRegistry.Holder(OwnerKind.NAMESPACE, gone.id(),
            Optional.of(purgeAfter)));
  }
}
