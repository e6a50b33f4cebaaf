package io.floe.application.port.out;

import io.floe.domain.Principal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The users an identity provider's subject names. An external id is an org's own: each org may
 * have one user with it, so one person may be a user of several orgs.
 */
public interface ExternalIdentities {
  /** No identity provider: nobody is named. */
  ExternalIdentities NONE = new ExternalIdentities() {
    @Override
    public List<Principal> usersByExternalId(String externalId) {
      return List.of();
    }

    @Override
    public Optional<String> externalIdOf(UUID principalId) {
      return Optional.empty();
    }
  };

  /** Every user, of any org, whose external id is {@code externalId}, in a stable order. */
  List<Principal> usersByExternalId(String externalId);

  /** The external id of a principal, if it has one. */
  Optional<String> externalIdOf(UUID principalId);
}
