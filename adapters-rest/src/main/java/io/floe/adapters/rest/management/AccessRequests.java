package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.GrantCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.IssueTokenCommand;
import io.floe.domain.Action;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import io.floe.domain.TableName;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/** Turns the identity and access routes' request bodies and parameters into commands. */
final class AccessRequests {
  private static final long MAX_LIFETIME_SECONDS = IssueTokenCommand.MAX_LIFETIME.toSeconds();

  private AccessRequests() {}

  static CreatePrincipalCommand principal(ManagementRequest r, Principal.Kind kind) {
    JsonFields body = new JsonFields(r.body(JsonNode.class));
    return new CreatePrincipalCommand(kind, body.text("name").orElse(null),
        body.text("role").map(AccessRequests::role).orElse(Role.MEMBER),
        body.text("external_id"));
  }

  static Role role(String raw) {
    try {
      return Role.valueOf(raw.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Invalid.because("role must be member or admin, got '" + raw + "'");
    }
  }

  static IssueTokenCommand token(ManagementRequest r) {
    JsonFields body = new JsonFields(r.body(JsonNode.class));
    Optional<Instant> expiresAt = body.text("expires_at").map(AccessRequests::instant);
    JsonNode lifetime = body.node("expires_in_seconds");
    if (lifetime != null && !lifetime.isNull()) {
      if (!lifetime.canConvertToLong() || lifetime.asLong() <= 0
          || lifetime.asLong() > MAX_LIFETIME_SECONDS || expiresAt.isPresent()) {
        throw Invalid.because("expires_in_seconds must be a positive number of seconds up to "
            + MAX_LIFETIME_SECONDS + ", and not combined with expires_at");
      }
      expiresAt = Optional.of(Instant.now().plusSeconds(lifetime.asLong()));
    }
    return new IssueTokenCommand(id(body.text("principal_id").orElse(null), "principal_id"),
        expiresAt, body.text("description"));
  }

  static GrantCommand grant(ManagementRequest r) {
    JsonFields body = new JsonFields(r.body(JsonNode.class));
    return new GrantCommand(id(body.text("principal_id").orElse(null), "principal_id"),
        CreateNamespaceCommand.name(body.text("namespace").orElse(null), "namespace"),
        body.text("table").map(AccessRequests::tableName),
        action(body.text("action").orElse(null)));
  }

  static Action action(String raw) {
    if (raw == null) {
      throw Invalid.because("action is required: read, write or manage");
    }
    try {
      return Action.valueOf(raw.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Invalid.because("action must be read, write or manage, got '" + raw + "'");
    }
  }

  static UUID id(String raw, String field) {
    if (raw == null) {
      throw Invalid.because(field + " is required");
    }
    try {
      return UUID.fromString(raw);
    } catch (IllegalArgumentException e) {
      throw Invalid.because(field + " must be an id, got '" + raw + "'");
    }
  }

  private static TableName tableName(String raw) {
    try {
      return new TableName(raw);
    } catch (InvalidNameException e) {
      throw Invalid.because("table: " + e.getMessage());
    }
  }

  private static Instant instant(String raw) {
    try {
      return Instant.parse(raw);
    } catch (DateTimeParseException e) {
      throw Invalid.because("expires_at must be an ISO-8601 time such as 2030-01-01T00:00:00Z");
    }
  }
}
