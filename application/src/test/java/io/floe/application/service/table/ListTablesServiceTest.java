package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.junit.jupiter.api.Test;

/** Listing a namespace's tables: only what the caller may see, paged, with checked tokens. */
class ListTablesServiceTest {
  private final Testbed bed = new Testbed();
  private final ListTablesService tables = new ListTablesService(bed.locator(), bed.policy(),
      bed.store.objects());
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final OrgContext member = bed.member("max", Role.MEMBER);

  private static org.apache.iceberg.catalog.Namespace ns(String name) {
    return org.apache.iceberg.catalog.Namespace.of(name);
  }

  @Test
  void anAdminPagesThroughEveryTable() {
    for (String name : new String[] {"a", "b", "c"}) {
      bed.entry(sales, name, "s3://data/" + name + "/v1.json");
    }

    ListTablesResponse first = tables.listTables(bed.admin, ns("sales"), null, 2);
    ListTablesResponse second = tables.listTables(bed.admin, ns("sales"),
        first.nextPageToken(), 2);

    assertThat(first.identifiers()).containsExactly(TableIdentifier.of("sales", "a"),
        TableIdentifier.of("sales", "b"));
    assertThat(second.identifiers()).containsExactly(TableIdentifier.of("sales", "c"));
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void aMemberSeesOnlyTheTablesItWasGranted() {
    CatalogObject granted = bed.entry(sales, "granted", "s3://data/g/v1.json");
    bed.entry(sales, "hidden", "s3://data/h/v1.json");
    bed.grant(member.caller().principal().id(), sales, Optional.of(granted), Action.READ);

    assertThat(tables.listTables(member, ns("sales"), null, null).identifiers())
        .containsExactly(TableIdentifier.of("sales", "granted"));
  }

  @Test
  void aPrivateNamespaceWithoutAGrantDoesNotExistForTheCaller() {
    assertThatThrownBy(() -> tables.listTables(member, ns("sales"), null, null))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThatThrownBy(() -> tables.listTables(bed.admin, ns("nothing"), null, null))
        .isInstanceOf(NoSuchNamespaceException.class);
  }

  @Test
  void aPublicNamespaceIsListedForEveryMember() {
    Namespace open = bed.namespace("open", Visibility.AUTHENTICATED_PUBLIC);
    bed.entry(open, "t", "s3://data/t/v1.json");

    assertThat(tables.listTables(member, ns("open"), null, null).identifiers())
        .containsExactly(TableIdentifier.of("open", "t"));
  }

  @Test
  void aForgedPageTokenOrABadPageSizeIsABadRequest() {
    bed.entry(sales, "a", "s3://data/a/v1.json");

    assertThatThrownBy(() -> tables.listTables(bed.admin, ns("sales"), "forged-token", null))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> tables.listTables(bed.admin, ns("sales"), null, 0))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> tables.listTables(bed.admin, ns("sales"), null, -5))
        .isInstanceOf(BadRequestException.class);
  }
}
