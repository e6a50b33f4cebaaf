package io.floe.application.port.out;

import io.floe.domain.ApiToken;
import io.floe.domain.WebSession;
import java.time.Instant;
import java.util.Optional;

/** The web app's sessions, found by the hash of their secret. */
public interface WebSessionStore {
  /** A stored session and, when it was signed in with an API token, that token as it is now. */
  record Found(WebSession session, Optional<ApiToken> apiToken) {}

  void insert(WebSession session);

  Optional<Found> findBySecretHash(String secretHash);

  /** Signs the session out; the first time stays. */
  void end(String secretHash, Instant now);

  /** Forgets sessions that expired before {@code before}; returns how many. */
  long deleteExpired(Instant before);
}
