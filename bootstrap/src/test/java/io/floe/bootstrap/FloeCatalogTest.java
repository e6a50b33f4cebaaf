package io.floe.bootstrap;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.catalog.CatalogTests;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Iceberg's own catalog conformance suite, run with Iceberg's Java REST client against a real Floe
 * server over HTTP. Each test gets an org of its own.
 */
@FloeServerTest
class FloeCatalogTest extends CatalogTests<RESTCatalog> {
  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;

  @BeforeAll
  static void startServer(TestFloe shared) {
    floe = shared;
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
