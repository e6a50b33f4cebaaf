package io.floe.adapters.rest.management;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.floe.application.model.GrantDetails;
import io.floe.application.model.IssuedToken;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/** Response bodies of the identity and access routes, in the management API's snake_case. */
final class AccessJson {
  private AccessJson() {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record PrincipalBody(UUID id, String kind, String name, String role, String externalId) {
    static PrincipalBody of(PrincipalDetails details) {
      return new PrincipalBody(details.principal().id(), kindName(details), 
          details.principal().name(), details.role().name().toLowerCase(Locale.ROOT),
          details.externalId().orElse(null));
    }

    private static String kindName(PrincipalDetails details) {
      return switch (details.principal().kind()) {
        case USER -> "user";
        case TEAM -> "team";
        case API_CLIENT -> "api_client";
      };
    }
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record TokenBody(UUID id, UUID principalId, String description, Instant createdAt,
      Instant expiresAt, Instant revokedAt, Instant lastUsedAt, String token) {
    static TokenBody of(TokenDetails details) {
      return of(details, null);
    }

    static TokenBody of(IssuedToken issued) {
      return of(issued.details(), issued.secret());
    }

    private static TokenBody of(TokenDetails details, String secret) {
      return new TokenBody(details.id(), details.principalId(),
          details.description().orElse(null), details.createdAt(),
          details.expiresAt().orElse(null), details.revokedAt().orElse(null),
          details.lastUsedAt().orElse(null), secret);
    }
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record GrantBody(UUID id, UUID principalId, String principalName, String namespace,
      String table, String action, Instant createdAt) {
    static GrantBody of(GrantDetails details) {
      return new GrantBody(details.id(), details.principalId(), details.principalName(),
          details.namespace(), details.table().orElse(null),
          details.action().name().toLowerCase(Locale.ROOT), details.createdAt());
    }
  }
}
