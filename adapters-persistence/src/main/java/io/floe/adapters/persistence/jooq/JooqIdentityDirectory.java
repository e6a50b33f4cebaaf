package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.API_TOKENS;
import static io.floe.adapters.persistence.jooq.schema.Tables.GRANTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.MEMBERSHIPS;
import static io.floe.adapters.persistence.jooq.schema.Tables.PRINCIPALS;
import static io.floe.adapters.persistence.jooq.schema.Tables.TEAM_MEMBERS;

import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.domain.ApiToken;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;

/** Org members, teams and token records in PostgreSQL. */
public final class JooqIdentityDirectory implements IdentityDirectory {
  private final DSLContext dsl;
  private final Runnable storePendingTokenUses;

  public JooqIdentityDirectory(Database database) {
    this(database, () -> {});
  }

  /**
   * A directory that first stores the token uses the server noted in memory but has not written
   * yet ({@code storePendingTokenUses}) whenever it reads tokens: a listing then shows every use
   * this server saw, as if each had been written when it happened.
   */
  public JooqIdentityDirectory(Database database, Runnable storePendingTokenUses) {
    this.dsl = database.dsl();
    this.storePendingTokenUses = storePendingTokenUses;
  }

  @Override
  public void createMember(Principal principal, UUID homeOrgId, Role role,
      Optional<String> externalId) {
    dsl.insertInto(PRINCIPALS).set(PRINCIPALS.ID, principal.id())
        .set(PRINCIPALS.KIND, principal.kind().name()).set(PRINCIPALS.NAME, principal.name())
        .set(PRINCIPALS.EXTERNAL_ID, externalId.orElse(null))
        .set(PRINCIPALS.HOME_ORG_ID, homeOrgId)
        .execute();
    dsl.insertInto(MEMBERSHIPS).set(MEMBERSHIPS.ORG_ID, homeOrgId)
        .set(MEMBERSHIPS.PRINCIPAL_ID, principal.id()).set(MEMBERSHIPS.ROLE, role.name())
        .execute();
  }

  @Override
  public List<Principal> usersByExternalId(String externalId) {
    return dsl.selectFrom(PRINCIPALS)
        .where(PRINCIPALS.EXTERNAL_ID.eq(externalId), PRINCIPALS.KIND.eq("USER"))
        .orderBy(PRINCIPALS.ID)
        .fetch(row -> new Principal(row.getId(), Principal.Kind.USER, row.getName()));
  }

  @Override
  public Optional<String> externalIdOf(UUID principalId) {
    return dsl.select(PRINCIPALS.EXTERNAL_ID).from(PRINCIPALS)
        .where(PRINCIPALS.ID.eq(principalId))
        .fetchOptional(PRINCIPALS.EXTERNAL_ID);
  }

  @Override
  public boolean isHomedIn(UUID principalId, UUID orgId) {
    return dsl.fetchExists(PRINCIPALS, PRINCIPALS.ID.eq(principalId),
        PRINCIPALS.HOME_ORG_ID.eq(orgId));
  }

  @Override
  public List<PrincipalDetails> members(UUID orgId, Optional<Principal.Kind> kind) {
    return selectMembers(orgId)
        .and(kind.map(k -> PRINCIPALS.KIND.eq(k.name())).orElse(DSL.noCondition()))
        .orderBy(PRINCIPALS.KIND, PRINCIPALS.NAME, PRINCIPALS.ID)
        .fetch(JooqIdentityDirectory::toDetails);
  }

  @Override
  public Optional<PrincipalDetails> member(UUID orgId, UUID principalId) {
    return selectMembers(orgId).and(PRINCIPALS.ID.eq(principalId))
        .fetchOptional(JooqIdentityDirectory::toDetails);
  }

  @Override
  public void setRole(UUID orgId, UUID principalId, Role role) {
    dsl.update(MEMBERSHIPS).set(MEMBERSHIPS.ROLE, role.name())
        .where(MEMBERSHIPS.ORG_ID.eq(orgId), MEMBERSHIPS.PRINCIPAL_ID.eq(principalId))
        .execute();
  }

  @Override
  public void removeMember(UUID orgId, UUID principalId) {
    dsl.deleteFrom(GRANTS).where(GRANTS.ORG_ID.eq(orgId), GRANTS.PRINCIPAL_ID.eq(principalId))
        .execute();
    dsl.deleteFrom(MEMBERSHIPS)
        .where(MEMBERSHIPS.ORG_ID.eq(orgId), MEMBERSHIPS.PRINCIPAL_ID.eq(principalId))
        .execute();
  }

  @Override
  public boolean addTeamMember(UUID teamId, UUID userId) {
    return dsl.insertInto(TEAM_MEMBERS).set(TEAM_MEMBERS.TEAM_ID, teamId)
        .set(TEAM_MEMBERS.MEMBER_ID, userId).onConflictDoNothing().execute() == 1;
  }

  @Override
  public boolean removeTeamMember(UUID teamId, UUID userId) {
    return dsl.deleteFrom(TEAM_MEMBERS)
        .where(TEAM_MEMBERS.TEAM_ID.eq(teamId), TEAM_MEMBERS.MEMBER_ID.eq(userId))
        .execute() == 1;
  }

  @Override
  public List<PrincipalDetails> teamMembers(UUID orgId, UUID teamId) {
    return selectMembers(orgId)
        .and(PRINCIPALS.ID.in(DSL.select(TEAM_MEMBERS.MEMBER_ID).from(TEAM_MEMBERS)
            .where(TEAM_MEMBERS.TEAM_ID.eq(teamId))))
        .orderBy(PRINCIPALS.NAME, PRINCIPALS.ID)
        .fetch(JooqIdentityDirectory::toDetails);
  }

  @Override
  public void insertToken(ApiToken token, Optional<String> description) {
    dsl.insertInto(API_TOKENS).set(API_TOKENS.ID, token.id())
        .set(API_TOKENS.PRINCIPAL_ID, token.principalId())
        .set(API_TOKENS.SECRET_HASH, token.secretHash())
        .set(API_TOKENS.DESCRIPTION, description.orElse(null))
        .set(API_TOKENS.CREATED_AT, Times.of(token.createdAt()))
        .set(API_TOKENS.EXPIRES_AT, Times.of(token.expiresAt().orElse(null)))
        .execute();
  }

  @Override
  public List<TokenDetails> tokens(UUID orgId, Optional<UUID> principalId) {
    storePendingTokenUses.run();
    return dsl.select(API_TOKENS.fields()).from(API_TOKENS)
        .join(PRINCIPALS).on(PRINCIPALS.ID.eq(API_TOKENS.PRINCIPAL_ID))
        .where(PRINCIPALS.HOME_ORG_ID.eq(orgId))
        .and(principalId.map(API_TOKENS.PRINCIPAL_ID::eq).orElse(DSL.noCondition()))
        .orderBy(API_TOKENS.CREATED_AT.desc(), API_TOKENS.ID)
        .fetch(JooqIdentityDirectory::toToken);
  }

  @Override
  public Optional<TokenDetails> token(UUID orgId, UUID tokenId) {
    storePendingTokenUses.run();
    return dsl.select(API_TOKENS.fields()).from(API_TOKENS)
        .join(PRINCIPALS).on(PRINCIPALS.ID.eq(API_TOKENS.PRINCIPAL_ID))
        .where(PRINCIPALS.HOME_ORG_ID.eq(orgId), API_TOKENS.ID.eq(tokenId))
        .fetchOptional(JooqIdentityDirectory::toToken);
  }

  @Override
  public void revokeToken(UUID tokenId, Instant now) {
    dsl.update(API_TOKENS).set(API_TOKENS.REVOKED_AT, Times.of(now))
        .where(API_TOKENS.ID.eq(tokenId), API_TOKENS.REVOKED_AT.isNull())
        .execute();
  }

  private org.jooq.SelectConditionStep<Record> selectMembers(UUID orgId) {
    return dsl.select(PRINCIPALS.fields()).select(MEMBERSHIPS.ROLE)
        .from(PRINCIPALS)
        .join(MEMBERSHIPS).on(MEMBERSHIPS.PRINCIPAL_ID.eq(PRINCIPALS.ID))
        .where(MEMBERSHIPS.ORG_ID.eq(orgId));
  }

  private static PrincipalDetails toDetails(Record row) {
    return new PrincipalDetails(new Principal(row.get(PRINCIPALS.ID),
        Principal.Kind.valueOf(row.get(PRINCIPALS.KIND)), row.get(PRINCIPALS.NAME)),
        Role.valueOf(row.get(MEMBERSHIPS.ROLE)),
        Optional.ofNullable(row.get(PRINCIPALS.EXTERNAL_ID)));
  }

  private static TokenDetails toToken(Record row) {
    return new TokenDetails(row.get(API_TOKENS.ID), row.get(API_TOKENS.PRINCIPAL_ID),
        Optional.ofNullable(row.get(API_TOKENS.DESCRIPTION)),
        Times.instant(row.get(API_TOKENS.CREATED_AT)), Times.optional(row.get(API_TOKENS.EXPIRES_AT)),
        Times.optional(row.get(API_TOKENS.REVOKED_AT)),
        Times.optional(row.get(API_TOKENS.LAST_USED_AT)));
  }
}
