package io.floe.application.service;

import io.floe.application.port.in.IdempotentRequestsUseCase;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * Idempotency keys: the first successful response is recorded with the change it made, in one
 * transaction, and kept for a bounded lifetime. Failed requests are not recorded (their
 * transaction rolled back), so a client may retry them with the same key.
 */
public final class IdempotencyService implements IdempotentRequestsUseCase {
  private static final int MAX_KEY_LENGTH = 128;

  private final IdempotencyStore store;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final Duration lifetime;

  public IdempotencyService(IdempotencyStore store, UnitOfWork unitOfWork, Clock clock,
      Duration lifetime) {
    this.store = store;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  public Duration lifetime() {
    return lifetime;
  }

  @Override
  public Reply run(OrgContext context, String key, String operation, Supplier<Reply> work) {
    if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
      throw new BadRequestException("Idempotency-Key must be 1 to %d characters", MAX_KEY_LENGTH);
    }
    return unitOfWork.inTransaction(() -> {
      Instant now = clock.instant();
      Optional<IdempotencyStore.Recorded> recorded = store.find(context.org().id(), key, now);
      if (recorded.isPresent()) {
        return replay(recorded.get(), operation);
      }
      Reply reply = work.get();
      boolean first = store.record(context.org().id(), key,
          new IdempotencyStore.Recorded(operation, reply.status(), reply.body()),
          now.plus(lifetime));
      if (!first) {
        throw new UnprocessableEntityException(
            "A request with Idempotency-Key '%s' is being processed concurrently", key);
      }
      return reply;
    });
  }

  private static Reply replay(IdempotencyStore.Recorded recorded, String operation) {
    if (!recorded.operation().equals(operation)) {
      throw new UnprocessableEntityException(
          "Idempotency-Key was already used for a different request (%s)", recorded.operation());
    }
    return new Reply(recorded.status(), recorded.body());
  }
}
