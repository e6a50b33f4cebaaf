package io.floe.application.port.in;

import io.floe.domain.OrgName;
import java.util.Optional;

/** Creates an org with Iceberg enabled, its default bucket, and an admin with an API token. */
public interface ProvisionOrgUseCase {
  /**
   * Creates the org unless it exists.
   *
   * @return the new admin token's secret, shown this once; empty when the org already existed
   */
  Optional<String> provisionIfAbsent(OrgName name, BucketSpec defaultBucket);
}
