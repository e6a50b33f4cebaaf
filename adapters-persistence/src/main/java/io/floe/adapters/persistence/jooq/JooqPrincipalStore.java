package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.API_TOKENS;
import static io.floe.adapters.persistence.jooq.schema.Tables.MEMBERSHIPS;
import static io.floe.adapters.persistence.jooq.schema.Tables.PRINCIPALS;

import io.floe.application.port.out.PrincipalStore;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record3;
import org.jooq.Row3;
import org.jooq.Table;
import org.jooq.impl.DSL;

/** Principals, memberships and API tokens (hashes only) in PostgreSQL. */
public final class JooqPrincipalStore implements PrincipalStore {
  private final DSLContext dsl;

  public JooqPrincipalStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void insertPrincipal(Principal principal) {
    dsl.insertInto(PRINCIPALS).set(PRINCIPALS.ID, principal.id())
        .set(PRINCIPALS.KIND, principal.kind().name()).set(PRINCIPALS.NAME, principal.name())
        .execute();
  }

  @Override
  public Optional<Principal> findPrincipal(UUID id) {
    return dsl.selectFrom(PRINCIPALS).where(PRINCIPALS.ID.eq(id)).fetchOptional()
        .map(row -> new Principal(row.getId(), Principal.Kind.valueOf(row.getKind()),
            row.getName()));
  }

  @Override
  public void insertMembership(Membership membership) {
    dsl.insertInto(MEMBERSHIPS).set(MEMBERSHIPS.ORG_ID, membership.orgId())
        .set(MEMBERSHIPS.PRINCIPAL_ID, membership.principalId())
        .set(MEMBERSHIPS.ROLE, membership.role().name()).execute();
  }

  @Override
  public Optional<Membership> findMembership(UUID orgId, UUID principalId) {
    return dsl.selectFrom(MEMBERSHIPS)
        .where(MEMBERSHIPS.ORG_ID.eq(orgId), MEMBERSHIPS.PRINCIPAL_ID.eq(principalId))
        .fetchOptional()
        .map(row -> new Membership(row.getOrgId(), row.getPrincipalId(),
            Role.valueOf(row.getRole())));
  }

  @Override
  public void insertToken(ApiToken token) {
    dsl.insertInto(API_TOKENS).set(API_TOKENS.ID, token.id())
        .set(API_TOKENS.PRINCIPAL_ID, token.principalId())
        .set(API_TOKENS.SECRET_HASH, token.secretHash())
        .set(API_TOKENS.CREATED_AT, Times.of(token.createdAt()))
        .set(API_TOKENS.EXPIRES_AT, Times.of(token.expiresAt().orElse(null)))
        .set(API_TOKENS.REVOKED_AT, Times.of(token.revokedAt().orElse(null)))
        .execute();
  }

  @Override
  public Optional<ApiToken> findTokenByHash(String secretHash) {
    return dsl.selectFrom(API_TOKENS).where(API_TOKENS.SECRET_HASH.eq(secretHash)).fetchOptional()
        .map(row -> new ApiToken(row.getId(), row.getPrincipalId(), row.getSecretHash(),
            Times.instant(row.getCreatedAt()), Times.optional(row.getExpiresAt()),
            Times.optional(row.getRevokedAt())));
  }

  /**
   * Records the last use of many tokens in one statement. A recorded time is only rewritten once
   * it is a minute old: a busy engine must not turn every request into a row update.
   */
  public void touchTokens(Map<UUID, Instant> usedAt) {
    if (usedAt.isEmpty()) {
      return;
    }
    List<Row3<UUID, OffsetDateTime, OffsetDateTime>> rows = new ArrayList<>();
    usedAt.forEach((token, at) -> rows.add(DSL.row(token, Times.of(at),
        Times.of(at.minusSeconds(60)))));
    @SuppressWarnings("unchecked")
    Table<Record3<UUID, OffsetDateTime, OffsetDateTime>> uses =
        DSL.values(rows.toArray(Row3[]::new)).as("uses", "id", "used_at", "rewrite_before");
    Field<UUID> id = uses.field("id", UUID.class);
    Field<OffsetDateTime> at = uses.field("used_at", OffsetDateTime.class);
    Field<OffsetDateTime> rewriteBefore = uses.field("rewrite_before", OffsetDateTime.class);
    dsl.update(API_TOKENS).set(API_TOKENS.LAST_USED_AT, at)
        .from(uses)
        .where(API_TOKENS.ID.eq(id))
        .and(API_TOKENS.LAST_USED_AT.isNull().or(API_TOKENS.LAST_USED_AT.lt(rewriteBefore)))
        .execute();
  }

  @Override
  public void touchToken(UUID tokenId, Instant usedAt) {
    touchTokens(Map.of(tokenId, usedAt));
  }
}
