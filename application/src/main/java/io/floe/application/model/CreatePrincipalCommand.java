package io.floe.application.model;

import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.Objects;
import java.util.Optional;

/**
 * What adding a user, API client or team to an org takes. Teams are always plain members: their
 * role never makes their users admins. {@code externalId} is the value by which an identity
 * provider's tokens name a user (the configured claim, e.g. {@code sub} or {@code email}).
 */
public record CreatePrincipalCommand(Principal.Kind kind, String name, Role role,
    Optional<String> externalId) {
  public static final int MAX_NAME_LENGTH = 200;

  public CreatePrincipalCommand {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(externalId, "externalId");
    name = Text.required(name, "name", MAX_NAME_LENGTH);
    externalId = externalId.map(id -> Text.required(id, "external_id", MAX_NAME_LENGTH));
    if (kind == Principal.Kind.TEAM && role != Role.MEMBER) {
      throw Invalid.because("a team's role is always MEMBER; make its users admins instead");
    }
    if (kind != Principal.Kind.USER && externalId.isPresent()) {
      throw Invalid.because("only users sign in through an identity provider");
    }
  }
}
