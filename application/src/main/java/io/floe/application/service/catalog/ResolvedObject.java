package io.floe.application.service.catalog;

import io.floe.application.port.out.MetadataPointers;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.StoragePath;
import org.apache.iceberg.TableMetadata;

/**
 * A table or view of a plain namespace, with the namespace it lives in and the bucket its files
 * are on. Its pointer lives in its catalog row.
 */
public record ResolvedObject(Namespace namespace, CatalogObject object, BucketConfig bucket)
    implements ResolvedTable {
  @Override
  public StoragePath path() {
    return object.location().path();
  }

  @Override
  public String metadataLocation() {
    return object.metadataLocation();
  }

  @Override
  public MetadataPointers.Key pointer() {
    return new MetadataPointers.Row(object.id());
  }

  @Override
  public String pointerHome() {
    return "the catalog";
  }

  @Override
  public void requireAllowed(TableMetadata next) {
    // A plain namespace's table may change every property.
  }

  @Override
  public void require(AccessPolicy policy, OrgContext context, Action action) {
    policy.require(context, action, namespace, object);
  }

  @Override
  public boolean allows(AccessPolicy policy, OrgContext context, Action action) {
    return policy.allows(context, action, namespace, object);
  }
}
