package io.floe.application.service.catalog;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.testbed.Testbed;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.junit.jupiter.api.Test;

/**
 * Lookups of names that no namespace, table or view can have answer "does not exist", as the
 * Iceberg REST spec has existence checks answer (clients' {@code table_exists} returns false on a
 * 404 and raises on a 400).
 */
class CatalogLocatorTest {
  private final Testbed bed = new Testbed();
  private final CatalogLocator locator = bed.locator();

  @Test
  void aTableOrViewWhoseNameCannotExistIsNotFound() {
    bed.table(bed.namespace("sales", io.floe.domain.Visibility.PRIVATE), "orders");
    for (TableIdentifier impossible : java.util.List.of(
        TableIdentifier.of(Namespace.of("TEST NS"), "orders"),
        TableIdentifier.of(Namespace.of("sales"), " orders"),
        TableIdentifier.of(Namespace.of("sales"), "a/b"))) {
      assertThatThrownBy(() -> locator.table(bed.admin, impossible)).as("%s", impossible)
          .isInstanceOf(NoSuchTableException.class);
      assertThatThrownBy(() -> locator.view(bed.admin, impossible)).as("%s", impossible)
          .isInstanceOf(NoSuchViewException.class);
    }
    assertThatThrownBy(() -> locator.namespace(bed.admin, Namespace.of("TEST NS")))
        .isInstanceOf(NoSuchNamespaceException.class);
  }
}
