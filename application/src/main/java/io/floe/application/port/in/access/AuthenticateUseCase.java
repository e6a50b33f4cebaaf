package io.floe.application.port.in.access;

import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;

/** Turns a bearer token into a caller, and a caller plus a warehouse name into an org scope. */
public interface AuthenticateUseCase {
  /** @throws org.apache.iceberg.exceptions.NotAuthorizedException for a missing, unknown, expired or revoked token */
  Caller authenticate(String bearerToken);

  /**
   * The caller an identity provider's subject {@code externalId} is: every org's user with that
   * external id; empty when no org has one.
   */
  java.util.Optional<Caller> callerNamed(String externalId);

  /**
   * @throws org.apache.iceberg.exceptions.NoSuchWarehouseException when the org does not exist or
   *     the caller is not a member (the two look the same, so org names do not leak)
   */
  OrgContext enterOrg(Caller caller, String warehouse);
}
