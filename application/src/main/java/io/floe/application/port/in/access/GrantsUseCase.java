package io.floe.application.port.in.access;

import io.floe.application.model.GrantCommand;
import io.floe.application.model.GrantDetails;
import io.floe.application.security.OrgContext;
import io.floe.domain.CatalogName;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Grants on namespaces and tables: made and revoked by whoever may manage the namespace. */
public interface GrantsUseCase {
  GrantDetails grant(OrgContext context, GrantCommand command);

  /** Grants on namespaces the caller may manage, optionally on one namespace or to one principal. */
  List<GrantDetails> grants(OrgContext context, Optional<CatalogName> namespace,
      Optional<UUID> principalId);

  void revokeGrant(OrgContext context, UUID grantId);
}
