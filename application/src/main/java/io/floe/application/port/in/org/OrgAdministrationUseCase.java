package io.floe.application.port.in.org;

import io.floe.application.model.BucketSpec;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.org.ProvisionOrgUseCase.ProvisionedOrg;
import io.floe.application.security.Caller;
import io.floe.domain.Org;
import java.util.Optional;

/**
 * The server operators' view of orgs: creating them and switching their Iceberg feature flag.
 * Operators are the admins of the server's bootstrap org; everyone else gets a 403. Their changes
 * are recorded in the bootstrap org's audit log, the org they act from.
 */
public interface OrgAdministrationUseCase {
  /**
   * An org to create. The name is checked (after the caller) against the rules of
   * {@link io.floe.domain.OrgName}; without a default bucket, the org gets a local one on the
   * server's disk.
   */
  record NewOrg(String name, boolean icebergEnabled, Optional<BucketSpec> defaultBucket) {}

  /**
   * @throws org.apache.iceberg.exceptions.ForbiddenException when the caller is not an operator
   * @throws org.apache.iceberg.exceptions.AlreadyExistsException when the name is taken
   * @throws io.floe.domain.InvalidNameException when the name breaks the org name rules
   */
  ProvisionedOrg create(Caller caller, RequestInfo request, NewOrg org);

  /**
   * @throws org.apache.iceberg.exceptions.ForbiddenException when the caller is not an operator
   * @throws org.apache.iceberg.exceptions.NoSuchWarehouseException when there is no such org
   */
  Org setIcebergEnabled(Caller caller, RequestInfo request, String org, boolean enabled);
}
