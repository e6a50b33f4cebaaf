package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.WebSessionStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.TokenRow;
import io.floe.domain.WebSession;
import java.time.Instant;
import java.util.Optional;

/** Web sessions in memory, keyed by id, found by their secret's hash with their API token. */
public final class InMemoryWebSessionStore implements WebSessionStore {
  private final InMemoryDatabase db;

  public InMemoryWebSessionStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void insert(WebSession session) {
    db.statement(() -> {
      if (db.webSessions.containsKey(session.id())) {
        throw InMemoryDatabase.uniqueViolation("web_sessions_pkey");
      }
      if (bySecretHash(session.secretHash()).isPresent()) {
        throw InMemoryDatabase.uniqueViolation("web_sessions_secret_hash_key");
      }
      db.webSessions.put(session.id(), session);
    });
  }

  @Override
  public Optional<Found> findBySecretHash(String secretHash) {
    return db.statement(() -> bySecretHash(secretHash).map(session -> new Found(session,
        session.apiTokenId().flatMap(db.tokens::get).map(TokenRow::token))));
  }

  @Override
  public void end(String secretHash, Instant now) {
    db.statement(() -> bySecretHash(secretHash)
        .filter(session -> session.endedAt().isEmpty())
        .ifPresent(session -> db.webSessions.put(session.id(), new WebSession(session.id(),
            session.principalId(), session.secretHash(), session.apiTokenId(),
            session.csrfToken(), session.createdAt(), session.expiresAt(), Optional.of(now)))));
  }

  @Override
  public long deleteExpired(Instant before) {
    return db.statement(() -> {
      int count = db.webSessions.rows().size();
      db.webSessions.rows().values().removeIf(session -> session.expiresAt().isBefore(before));
      return (long) (count - db.webSessions.rows().size());
    });
  }

  private Optional<WebSession> bySecretHash(String secretHash) {
    return db.webSessions.values().stream()
        .filter(session -> session.secretHash().equals(secretHash)).findFirst();
  }
}
