package io.floe.bootstrap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.view.ViewCatalogTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Iceberg's own view-catalog conformance suite against a real Floe server over HTTP. */
class FloeViewCatalogTest extends ViewCatalogTests<RESTCatalog> {
  @TempDir static Path directory;
  private static TestFloe floe;
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
    catalog = floe.catalog(floe.newOrg(), Map.of());
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
  protected Catalog tableCatalog() {
    return catalog;
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
}
