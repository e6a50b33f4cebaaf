package io.floe.application.service.catalog;

import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;

/** A table or view with the namespace it lives in and the bucket its files are on. */
public record ResolvedObject(Namespace namespace, CatalogObject object, BucketConfig bucket) {
  /** The URI of the table's own directory: everything the table writes must stay under it. */
  public String rootUri() {
    return bucket.uriOf(object.location().path());
  }
}
