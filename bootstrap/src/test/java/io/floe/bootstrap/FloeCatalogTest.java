package io.floe.bootstrap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.CatalogTests;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg's own catalog conformance suite, run with Iceberg's Java REST client against a real Floe
 * server over HTTP. Each test gets an org of its own.
 */
class FloeCatalogTest extends CatalogTests<RESTCatalog> {
  @TempDir static Path directory;
  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;

  @BeforeAll
  static void startServer() {
    floe = TestFloe.start(directory);
  }

  @AfterAll
  static void stopServer() {
    floe.close();
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
    catalog = initCatalog("floe", Map.of());
  }

  @AfterEach
  void closeCatalog() throws IOException {
    catalog.close();
  }

  @Override
  protected RESTCatalog catalog() {
    return catalog;
  }

  @Override
  protected RESTCatalog initCatalog(String catalogName, Map<String, String> additionalProperties) {
    return floe.catalog(org, additionalProperties);
  }

  @Override
  protected boolean supportsNestedNamespaces() {
    return false;
  }

  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }

  @Override
  protected boolean overridesRequestedLocation() {
    return true;
  }

  @Override
  protected boolean supportsNamesWithSlashes() {
    return false;
  }

  /**
   * These tests configure {@code table-default.*} and {@code table-override.*} on the client and
   * expect the catalog to apply them. Iceberg's REST client leaves that to the server, and Floe
   * has no server-side table defaults (yet).
   */
  private static final String NO_SERVER_TABLE_DEFAULTS =
      "Floe has no server-side table-default/table-override properties";

  @Override
  @Disabled(NO_SERVER_TABLE_DEFAULTS)
  @Test
  public void testDefaultTableProperties() {
    super.testDefaultTableProperties();
  }

  @Override
  @Disabled(NO_SERVER_TABLE_DEFAULTS)
  @Test
  public void testDefaultTablePropertiesCreateTransaction() {
    super.testDefaultTablePropertiesCreateTransaction();
  }

  @Override
  @Disabled(NO_SERVER_TABLE_DEFAULTS)
  @Test
  public void testDefaultTablePropertiesReplaceTransaction() {
    super.testDefaultTablePropertiesReplaceTransaction();
  }

  @Override
  @Disabled(NO_SERVER_TABLE_DEFAULTS)
  @Test
  public void testOverrideTableProperties() {
    super.testOverrideTableProperties();
  }

  @Override
  @Disabled(NO_SERVER_TABLE_DEFAULTS)
  @Test
  public void testOverrideTablePropertiesCreateTransaction() {
    super.testOverrideTablePropertiesCreateTransaction();
  }

  @Override
  @Disabled(NO_SERVER_TABLE_DEFAULTS)
  @Test
  public void testOverrideTablePropertiesReplaceTransaction() {
    super.testOverrideTablePropertiesReplaceTransaction();
  }

  private static final String CLIENT_CHOSEN_LOCATION =
      "writes files at a location the client chose; Floe picks every location and refuses "
          + "commits that point outside the table's own prefix";

  @Override
  @Disabled(CLIENT_CHOSEN_LOCATION)
  @Test
  public void testCompleteReplaceTransaction() {
    super.testCompleteReplaceTransaction();
  }

  @Override
  @Disabled(CLIENT_CHOSEN_LOCATION)
  @Test
  public void testCompleteCreateOrReplaceTransactionReplace() {
    super.testCompleteCreateOrReplaceTransactionReplace();
  }

  @Override
  @Disabled("deletes a metadata file behind the catalog's back; metadata files are immutable "
      + "and Floe caches them by location, so a loaded table stays loadable")
  @Test
  public void testLoadTableWithMissingMetadataFile(@TempDir Path tempDir) throws IOException {
    super.testLoadTableWithMissingMetadataFile(tempDir);
  }
}
