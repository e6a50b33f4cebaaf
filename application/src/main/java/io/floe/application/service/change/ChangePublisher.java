package io.floe.application.service.change;

import io.floe.application.model.IdempotencyKey;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.ResultCodec;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * Publishes a change: runs its final writes in one transaction together with what the change
 * leaves on record, the result of a request sent with an {@code Idempotency-Key}. The result is
 * encoded before the transaction opens, so no serialization or storage I/O happens inside it.
 *
 * <p>Every mutating use case asks {@link #replay} after it has authorized the caller and before it
 * changes anything, and ends with {@link #publish}. A key is scoped to its principal and org, and
 * it is bound to the request it was first sent with: the same key with another method, route or
 * body is refused with 422, as the IETF {@code Idempotency-Key} draft says. A failed change leaves
 * no record (its transaction rolled back), so the client may retry it with the same key.
 */
public final class ChangePublisher {
  /** A result recorded earlier for the request's key; {@code result} is null for void changes. */
  public record Replay<R>(R result) {}

  private final IdempotencyStore records;
  private final ResultCodec codec;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final Duration keyLifetime;

  public ChangePublisher(IdempotencyStore records, ResultCodec codec, UnitOfWork unitOfWork,
      Clock clock, Duration keyLifetime) {
    this.records = records;
    this.codec = codec;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.keyLifetime = keyLifetime;
  }

  /** How long a key's result is replayed, as the catalog's config advertises it. */
  public Duration keyLifetime() {
    return keyLifetime;
  }

  /**
   * The result recorded for the request's key, if this caller already made this change with it.
   * Call only after the caller has been authorized for the change.
   */
  public <R> Optional<Replay<R>> replay(OrgContext context, Class<R> resultType) {
    Optional<IdempotencyKey> key = context.request().idempotencyKey();
    if (key.isEmpty()) {
      return Optional.empty();
    }
    return records.find(context.org().id(), context.caller().principal().id(), key.get().key(),
            clock.instant())
        .map(recorded -> {
          if (!recorded.requestFingerprint().equals(key.get().requestFingerprint())) {
            throw new UnprocessableEntityException("Idempotency-Key '%s' was already used for a "
                + "different request; use a new key for a new request", key.get().key());
          }
          return new Replay<>(resultType == Void.class ? null
              : codec.decode(recorded.result(), resultType));
        });
  }

  /** Runs {@code writes} and records {@code result} for the request's key in one transaction. */
  public <R> R publish(OrgContext context, R result, Runnable writes) {
    Optional<IdempotencyKey> key = context.request().idempotencyKey();
    String encoded = key.isPresent() && result != null ? codec.encode(result) : "";
    unitOfWork.inTransaction(() -> {
      writes.run();
      key.ifPresent(k -> {
        Instant now = clock.instant();
        boolean first = records.record(context.org().id(), context.caller().principal().id(),
            k.key(), new IdempotencyStore.Recorded(k.requestFingerprint(), encoded),
            now.plus(keyLifetime), now);
        if (!first) {
          // Another request with this key made its change first; this one must not count twice.
          throw new CommitFailedException("A request with Idempotency-Key '%s' was processed "
              + "concurrently; retry to get its result", k.key());
        }
      });
    });
    return result;
  }

  /** {@link #publish} for a change without a result. */
  public void publish(OrgContext context, Runnable writes) {
    publish(context, null, writes);
  }
}
