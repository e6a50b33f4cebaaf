package io.floe.application.port.in;

import io.floe.application.security.OrgContext;
import java.util.function.Supplier;

/**
 * Runs a mutating request at most once per {@code Idempotency-Key}: a replay returns the recorded
 * first response. The record is written in the same transaction as the change.
 */
public interface IdempotentRequestsUseCase {
  /** A response as it went over the wire. */
  record Reply(int status, String body) {}

  Reply run(OrgContext context, String key, String operation, Supplier<Reply> work);
}
