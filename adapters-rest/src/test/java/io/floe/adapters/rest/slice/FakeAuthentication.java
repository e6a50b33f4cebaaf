package io.floe.adapters.rest.slice;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Three callers by token: the admin and a plain member of the org {@code acme}, and an outsider
 * who belongs to no org. Any other token, or none, is refused as the real service refuses it, and
 * recorded in {@link Calls} so a test can tell how far a request got.
 */
public final class FakeAuthentication implements AuthenticateUseCase {
  public static final String ADMIN = "admin-token";
  public static final String MEMBER = "member-token";
  public static final String OUTSIDER = "outsider-token";
  public static final Org ORG = new Org(UUID.fromString("00000000-0000-0000-0000-00000000a0a0"),
      new OrgName("acme"), true);

  private final Map<String, Principal> byToken = Map.of(
      ADMIN, new Principal(UUID.fromString("00000000-0000-0000-0000-000000000001"),
          Principal.Kind.USER, "ada"),
      MEMBER, new Principal(UUID.fromString("00000000-0000-0000-0000-000000000002"),
          Principal.Kind.USER, "max"),
      OUTSIDER, new Principal(UUID.fromString("00000000-0000-0000-0000-000000000003"),
          Principal.Kind.USER, "otto"));
  private final Calls calls;

  public FakeAuthentication(Calls calls) {
    this.calls = calls;
  }

  public static Principal principalOf(String token) {
    return new FakeAuthentication(new Calls()).byToken.get(token);
  }

  @Override
  public Caller authenticate(String bearerToken) {
    calls.record("Authenticate", "authenticate");
    Principal principal = bearerToken == null ? null : byToken.get(bearerToken);
    if (principal == null) {
      throw new NotAuthorizedException("Not authorized: missing or unknown token");
    }
    return new Caller(principal);
  }

  @Override
  public Optional<Caller> callerNamed(String externalId) {
    return Optional.empty();
  }

  @Override
  public OrgContext enterOrg(Caller caller, String warehouse) {
    calls.record("Authenticate", "enterOrg");
    Role role = caller.principal().name().equals("ada") ? Role.ADMIN
        : caller.principal().name().equals("max") ? Role.MEMBER : null;
    if (role == null || !ORG.name().value().equals(warehouse)) {
      throw new NoSuchWarehouseException("No such org: %s", warehouse);
    }
    return new OrgContext(caller, ORG, new Membership(ORG.id(), caller.principal().id(), role));
  }
}
