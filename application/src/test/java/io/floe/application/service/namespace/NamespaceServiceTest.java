package io.floe.application.service.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;
import org.junit.jupiter.api.Test;

/**
 * The Iceberg REST namespaces on the fakes: only admins create, at a location the server picks
 * and answers (a client's is refused), on the default bucket or one named; names are the org's,
 * once; a caller sees the namespaces it may read, page by page; properties change for those who
 * may manage the namespace, audited; a drop is a soft delete of an empty namespace; a keyed create
 * is replayed.
 */
class NamespaceServiceTest {
  private final Testbed bed = new Testbed();
  private final NamespaceService namespaces = new NamespaceService(bed.store.namespaces(),
      bed.store.orgs(), Namespaces.creation(bed), Namespaces.deletion(bed),
      bed.store.unitOfWork(), bed.clock, bed.policy(), bed.publisher(), bed.locator(),
      bed.repoNamespaces());
  private final OrgContext member = bed.member("member", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);

  private static CreateNamespaceRequest creating(String name, Map<String, String> properties) {
    // Iceberg's builder probes for null values, which immutable maps refuse to answer.
    return CreateNamespaceRequest.builder().withNamespace(Namespace.of(name))
        .setProperties(new HashMap<>(properties)).build();
  }

  private io.floe.domain.Namespace stored(String name) {
    return bed.store.namespaces().findLive(bed.org.id(), new CatalogName(name)).orElseThrow();
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  private List<String> listed(OrgContext context) {
    return namespaces.list(context, Namespace.empty(), null, null).namespaces().stream()
        .map(Namespace::toString).toList();
  }

  @Test
  void anAdminCreatesANamespaceAtAPrefixTheServerPicksAndItsLocationIsAnswered() {
    CreateNamespaceResponse created = namespaces.create(bed.admin,
        creating("sales", Map.of("comment", "orders and items")));

    io.floe.domain.Namespace sales = stored("sales");
    String location = bed.bucket.uriOf(sales.prefix());
    assertThat(created.namespace()).isEqualTo(Namespace.of("sales"));
    assertThat(created.properties()).containsEntry("comment", "orders and items")
        .containsEntry("location", location);
    assertThat(sales.properties()).containsOnlyKeys("comment");
    assertThat(sales.bucketId()).isEqualTo(bed.bucket.id());
    assertThat(bed.nameIsHeld("SALES")).isTrue();
    assertThat(namespaces.load(bed.admin, Namespace.of("sales")).properties())
        .containsEntry("location", location);
    assertThat(audit()).singleElement().satisfies(audited -> {
      assertThat(audited.action()).isEqualTo("namespace.create");
      assertThat(audited.targetName()).isEqualTo("sales");
      assertThat(audited.details()).containsEntry("bucket", "main")
          .containsEntry("location", location);
    });
  }

  @Test
  void onlyAdminsCreateAndALocationOrANameTakenIsRefused() {
    namespaces.create(bed.admin, creating("sales", Map.of()));

    assertThatThrownBy(() -> namespaces.create(member, creating("hr", Map.of())))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> namespaces.create(bed.admin,
        creating("hr", Map.of("location", "s3://data/hr"))))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("read-only");
    assertThatThrownBy(() -> namespaces.create(bed.admin, creating("Sales", Map.of())))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> namespaces.create(bed.admin,
        creating("hr", Map.of("floe.bucket", "nowhere"))))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("nowhere");
    assertThat(bed.store.namespaces().findLive(bed.org.id(), new CatalogName("hr"))).isEmpty();
    assertThat(bed.nameIsHeld("hr")).isFalse();
    assertThat(audit()).hasSize(1);
  }

  @Test
  void theSameCreateSentAgainWithItsKeyIsReplayed() {
    OrgContext keyed = Testbed.withKey(bed.admin, "ns-1", "POST namespaces sales");
    CreateNamespaceResponse first = namespaces.create(keyed, creating("sales", Map.of()));

    CreateNamespaceResponse again = namespaces.create(keyed, creating("sales", Map.of()));

    assertThat(again.properties()).isEqualTo(first.properties());
    assertThat(audit()).hasSize(1);
  }

  @Test
  void aMemberSeesPublicNamespacesAndThoseItHoldsAGrantInAndNoOther() {
    namespaces.create(bed.admin, creating("sales", Map.of()));
    namespaces.create(bed.admin, creating("hr", Map.of()));
    namespaces.create(bed.admin, creating("finance", Map.of()));
    io.floe.domain.Namespace sales = stored("sales");
    bed.store.namespaceLifecycle().saveDescription(stored("finance").id(), Optional.empty(),
        Map.of(), Visibility.AUTHENTICATED_PUBLIC, bed.clock.instant());
    bed.grant(member.caller().principal().id(), sales, Optional.empty(), Action.READ);

    assertThat(listed(bed.admin)).containsExactlyInAnyOrder("sales", "hr", "finance");
    assertThat(listed(member)).containsExactlyInAnyOrder("sales", "finance");
    assertThat(namespaces.load(member, Namespace.of("finance")).properties()).containsKey("location");
    assertThatThrownBy(() -> namespaces.load(member, Namespace.of("hr")))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThatThrownBy(() -> namespaces.list(member, Namespace.of("hr"), null, null))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(namespaces.list(member, Namespace.of("sales"), null, null).namespaces()).isEmpty();
  }

  @Test
  void aListingComesPageByPageWithATokenToTheNext() {
    for (String name : List.of("alpha", "beta", "gamma")) {
      namespaces.create(bed.admin, creating(name, Map.of()));
    }

    ListNamespacesResponse first = namespaces.list(bed.admin, Namespace.empty(), null, 2);
    ListNamespacesResponse second = namespaces.list(bed.admin, Namespace.empty(),
        first.nextPageToken(), 2);

    assertThat(first.namespaces()).containsExactly(Namespace.of("alpha"), Namespace.of("beta"));
    assertThat(first.nextPageToken()).isNotNull();
    assertThat(second.namespaces()).containsExactly(Namespace.of("gamma"));
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void propertiesChangeForThoseWhoManageTheNamespaceAndTheAuditLogNamesTheKeys() {
    namespaces.create(bed.admin, creating("sales", Map.of("owner", "ops", "tier", "gold")));
    bed.grant(writer.caller().principal().id(), stored("sales"), Optional.empty(), Action.WRITE);
    UpdateNamespacePropertiesRequest request = UpdateNamespacePropertiesRequest.builder()
        .update("owner", "finance").update("team", "blue").remove("tier").remove("absent")
        .build();

    assertThatThrownBy(() -> namespaces.updateProperties(writer, Namespace.of("sales"), request))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> namespaces.updateProperties(member, Namespace.of("sales"), request))
        .isInstanceOf(NoSuchNamespaceException.class);
    UpdateNamespacePropertiesResponse response = namespaces.updateProperties(bed.admin,
        Namespace.of("sales"), request);

    assertThat(response.updated()).containsExactlyInAnyOrder("owner", "team");
    assertThat(response.removed()).containsExactly("tier");
    assertThat(response.missing()).containsExactly("absent");
    assertThat(stored("sales").properties())
        .isEqualTo(Map.of("owner", "finance", "team", "blue"));
    AuditEntry last = audit().get(audit().size() - 1);
    assertThat(last.action()).isEqualTo("namespace.set_properties");
    assertThat(last.details().get("updated").toString()).contains("owner").contains("team");
    assertThat(last.details().get("removed").toString()).contains("tier")
        .doesNotContain("absent");
  }

  @Test
  void theLocationCanBeNeitherSetNorRemovedAndARefusalChangesNothing() {
    namespaces.create(bed.admin, creating("sales", Map.of("owner", "ops")));

    assertThatThrownBy(() -> namespaces.updateProperties(bed.admin, Namespace.of("sales"),
        UpdateNamespacePropertiesRequest.builder().update("location", "s3://data/x").build()))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> namespaces.updateProperties(bed.admin, Namespace.of("sales"),
        UpdateNamespacePropertiesRequest.builder().remove("location").build()))
        .isInstanceOf(BadRequestException.class);
    assertThat(stored("sales").properties()).isEqualTo(Map.of("owner", "ops"));
    assertThat(audit()).hasSize(1);
  }

  @Test
  void aDropIsASoftDeleteOfAnEmptyNamespaceByThoseWhoManageIt() {
    namespaces.create(bed.admin, creating("sales", Map.of()));
    namespaces.create(bed.admin, creating("hr", Map.of()));
    io.floe.domain.Namespace hr = stored("hr");
    bed.table(hr, "people");
    bed.grant(writer.caller().principal().id(), stored("sales"), Optional.empty(), Action.WRITE);

    assertThatThrownBy(() -> namespaces.drop(bed.admin, Namespace.of("hr")))
        .isInstanceOf(NamespaceNotEmptyException.class);
    assertThatThrownBy(() -> namespaces.drop(writer, Namespace.of("sales")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> namespaces.drop(member, Namespace.of("sales")))
        .isInstanceOf(NoSuchNamespaceException.class);
    namespaces.drop(bed.admin, Namespace.of("sales"));

    assertThat(bed.store.namespaces().findLive(bed.org.id(), new CatalogName("sales"))).isEmpty();
    assertThat(bed.nameIsHeld("sales")).as("held through the recovery period").isTrue();
    assertThat(bed.store.namespaces().findLive(bed.org.id(), new CatalogName("hr"))).isPresent();
    assertThatThrownBy(() -> namespaces.load(bed.admin, Namespace.of("sales")))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("namespace.create", "namespace.create", "namespace.delete");
    assertThatThrownBy(() -> namespaces.drop(bed.admin, Namespace.of("sales")))
        .isInstanceOf(NoSuchNamespaceException.class);
  }

  @Test
  void aNameNoNamespaceCanHaveDoesNotExistButCreatingOneIsRefusedNamingTheRule() {
    for (Namespace impossible : List.of(Namespace.of("TEST NS"), Namespace.of("-x"),
        Namespace.of("x".repeat(101)))) {
      assertThatThrownBy(() -> namespaces.load(bed.admin, impossible))
          .as("%s", impossible).isInstanceOf(NoSuchNamespaceException.class);
    }
    assertThatThrownBy(() -> namespaces.create(bed.admin, creating("TEST NS", Map.of())))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("use ASCII letters, digits, '-', '_' or '.'");
  }

  @Test
  void creatingTheNameOfADeletedNamespaceSaysHowToRestoreItAndWhenTheNameFreesUp() {
    namespaces.create(bed.admin, creating("sales", Map.of()));
    namespaces.drop(bed.admin, Namespace.of("sales"));
    String until = bed.clock.instant().plus(Namespaces.RECOVERY).toString();

    assertThatThrownBy(() -> namespaces.create(bed.admin, creating("Sales", Map.of())))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("belongs to a deleted namespace")
        .hasMessageContaining("restored until " + until)
        .hasMessageContaining("POST /orgs/" + bed.org.name() + "/iceberg/namespaces/Sales/restore")
        .hasMessageContaining("floe namespaces restore Sales");
    assertThatThrownBy(() -> namespaces.load(bed.admin, Namespace.of("sales")))
        .isInstanceOf(NoSuchNamespaceException.class);
  }
}
