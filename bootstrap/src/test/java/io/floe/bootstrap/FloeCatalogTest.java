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
}
