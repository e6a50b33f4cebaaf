package io.floe.bootstrap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything an org holds, as its admin sees it through the catalog plus every file in its
 * bucket: two equal snapshots mean that nothing changed in the database or in storage.
 */
record CatalogState(List<String> catalog, List<String> files) {
  static CatalogState of(IcebergHttp admin, Path bucket) {
    List<String> catalog = new ArrayList<>();
    admin.get("/namespaces").body().path("namespaces").forEach(ns -> {
      String namespace = ns.get(0).asText();
      catalog.add(namespace + " " + admin.get("/namespaces/" + namespace).body()
          .path("properties"));
      admin.get("/namespaces/" + namespace + "/tables").body().path("identifiers")
          .forEach(id -> {
            String table = id.path("name").asText();
            catalog.add(namespace + "." + table + " " + admin.get("/namespaces/" + namespace
                + "/tables/" + table).body().path("metadata-location").asText());
          });
    });
    return new CatalogState(catalog, StoredState.files(bucket));
  }
}
