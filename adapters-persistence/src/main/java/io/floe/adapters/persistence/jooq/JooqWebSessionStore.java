package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.API_TOKENS;
import static io.floe.adapters.persistence.jooq.schema.Tables.WEB_SESSIONS;

import io.floe.adapters.persistence.jooq.schema.tables.records.ApiTokensRecord;
import io.floe.adapters.persistence.jooq.schema.tables.records.WebSessionsRecord;
import io.floe.application.port.out.WebSessionStore;
import io.floe.domain.ApiToken;
import io.floe.domain.WebSession;
import java.time.Instant;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Record;

/** Web sessions (secret hashes only) in PostgreSQL, read together with their API token. */
public final class JooqWebSessionStore implements WebSessionStore {
  private final DSLContext dsl;

  public JooqWebSessionStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void insert(WebSession session) {
    dsl.insertInto(WEB_SESSIONS)
        .set(WEB_SESSIONS.ID, session.id())
        .set(WEB_SESSIONS.PRINCIPAL_ID, session.principalId())
        .set(WEB_SESSIONS.SECRET_HASH, session.secretHash())
        .set(WEB_SESSIONS.API_TOKEN_ID, session.apiTokenId().orElse(null))
        .set(WEB_SESSIONS.CSRF_TOKEN, session.csrfToken())
        .set(WEB_SESSIONS.CREATED_AT, Times.of(session.createdAt()))
        .set(WEB_SESSIONS.EXPIRES_AT, Times.of(session.expiresAt()))
        .set(WEB_SESSIONS.ENDED_AT, Times.of(session.endedAt().orElse(null)))
        .execute();
  }

  @Override
  public Optional<Found> findBySecretHash(String secretHash) {
    return dsl.select(WEB_SESSIONS.asterisk(), API_TOKENS.asterisk())
        .from(WEB_SESSIONS)
        .leftJoin(API_TOKENS).on(API_TOKENS.ID.eq(WEB_SESSIONS.API_TOKEN_ID))
        .where(WEB_SESSIONS.SECRET_HASH.eq(secretHash))
        .fetchOptional()
        .map(JooqWebSessionStore::found);
  }

  @Override
  public void end(String secretHash, Instant now) {
    dsl.update(WEB_SESSIONS).set(WEB_SESSIONS.ENDED_AT, Times.of(now))
        .where(WEB_SESSIONS.SECRET_HASH.eq(secretHash), WEB_SESSIONS.ENDED_AT.isNull())
        .execute();
  }

  @Override
  public long deleteExpired(Instant before) {
    return dsl.deleteFrom(WEB_SESSIONS).where(WEB_SESSIONS.EXPIRES_AT.lt(Times.of(before)))
        .execute();
  }

  private static Found found(Record row) {
    WebSessionsRecord session = row.into(WEB_SESSIONS);
    Optional<ApiToken> token = Optional.ofNullable(row.get(API_TOKENS.ID))
        .map(id -> row.into(API_TOKENS))
        .map(JooqWebSessionStore::token);
    return new Found(new WebSession(session.getId(), session.getPrincipalId(),
        session.getSecretHash(), Optional.ofNullable(session.getApiTokenId()),
        session.getCsrfToken(), Times.instant(session.getCreatedAt()),
        Times.instant(session.getExpiresAt()), Times.optional(session.getEndedAt())), token);
  }

  private static ApiToken token(ApiTokensRecord row) {
    return new ApiToken(row.getId(), row.getPrincipalId(), row.getSecretHash(),
        Times.instant(row.getCreatedAt()), Times.optional(row.getExpiresAt()),
        Times.optional(row.getRevokedAt()));
  }
}
