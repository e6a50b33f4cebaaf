package io.floe.application.service.access;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.Invalid;
import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.application.port.in.access.TokensUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.ApiToken;
import io.floe.domain.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * API tokens: 256 random bits shown once when issued, kept only as a hash, to principals created
 * in the org (teams hold none). Admins issue, list and revoke them.
 */
public final class TokenService implements TokensUseCase {
  private static final int TOKEN_BYTES = 32;

  private final IdentityDirectory directory;
  private final OrgMembers members;
  private final AccessPolicy policy;
  private final IdGenerator ids;
  private final Clock clock;
  private final ChangePublisher publisher;

  public TokenService(IdentityDirectory directory, OrgMembers members, AccessPolicy policy,
      IdGenerator ids, Clock clock, ChangePublisher publisher) {
    this.directory = directory;
    this.members = members;
    this.policy = policy;
    this.ids = ids;
    this.clock = clock;
    this.publisher = publisher;
  }

  @Override
  public IssuedToken issueToken(OrgContext context, IssueTokenCommand command) {
    policy.requireAdmin(context, "issue tokens");
    PrincipalDetails holder = members.managed(context, command.principalId());
    if (holder.principal().kind() == Principal.Kind.TEAM) {
      throw Invalid.because("teams cannot hold tokens; issue them to the team's users");
    }
    Instant now = clock.instant();
    if (command.expiresAt().filter(expiry -> !expiry.isAfter(now)
        || expiry.isAfter(now.plus(IssueTokenCommand.MAX_LIFETIME))).isPresent()) {
      throw Invalid.because("expires_at must be in the future and at most "
          + IssueTokenCommand.MAX_LIFETIME.toDays() / 365 + " years from now");
    }
    String secret = ApiToken.secretFrom(ids.randomBytes(TOKEN_BYTES));
    ApiToken token = new ApiToken(ids.newId(), holder.principal().id(), ApiToken.hash(secret),
        now, command.expiresAt(), Optional.empty());
    // The audit log names the token by its id: its secret is nobody's business but the holder's.
    publisher.publish(context, AccessChanges.of(AuditAction.TOKEN_ISSUE, holder.principal())
        .with("token_id", token.id()).with("expires_at", command.expiresAt())
        .with("description", command.description()),
        () -> directory.insertToken(token, command.description()));
    return new IssuedToken(secret, new TokenDetails(token.id(), token.principalId(),
        command.description(), now, command.expiresAt(), Optional.empty(), Optional.empty()));
  }

  @Override
  public List<TokenDetails> tokens(OrgContext context, Optional<UUID> principalId) {
    policy.requireAdmin(context, "list tokens");
    return directory.tokens(context.org().id(), principalId);
  }

  @Override
  public TokenDetails revokeToken(OrgContext context, UUID tokenId) {
    policy.requireAdmin(context, "revoke tokens");
    TokenDetails token = directory.token(context.org().id(), tokenId)
        .orElseThrow(() -> new NotFoundException("No such token: %s", tokenId));
    AuditedChange change = directory.member(context.org().id(), token.principalId())
        .map(holder -> AccessChanges.of(AuditAction.TOKEN_REVOKE, holder.principal()))
        .orElseGet(() -> AuditedChange.of(AuditAction.TOKEN_REVOKE, AuditTarget.Kind.PRINCIPAL,
            token.principalId()).with("principal_id", token.principalId()))
        .with("token_id", tokenId);
    publisher.publish(context, change, () -> directory.revokeToken(tokenId, clock.instant()));
    return directory.token(context.org().id(), tokenId).orElseThrow();
  }
}
