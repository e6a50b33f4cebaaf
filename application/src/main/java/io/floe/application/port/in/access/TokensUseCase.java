package io.floe.application.port.in.access;

import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.model.TokenDetails;
import io.floe.application.security.OrgContext;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** API tokens of an org's own principals: issued once, listed without secrets, revoked. */
public interface TokensUseCase {
  IssuedToken issueToken(OrgContext context, IssueTokenCommand command);

  /** Tokens of the org's own principals, optionally of one of them. */
  List<TokenDetails> tokens(OrgContext context, Optional<UUID> principalId);

  TokenDetails revokeToken(OrgContext context, UUID tokenId);
}
