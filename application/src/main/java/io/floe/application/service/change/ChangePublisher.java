package io.floe.application.service.change;

import io.floe.application.model.AuditedChange;
import io.floe.application.model.IdempotencyKey;
import io.floe.application.port.out.AuditLog;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.ResultCodec;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;

/**
 * Publishes a change: runs its final writes in one transaction together with what the change
 * leaves on record: its entries in the org's audit log (who, what, when, for which request), and
 * the result of a request sent with an {@code Idempotency-Key}. The result is encoded before the
 * transaction opens, so no serialization or storage I/O happens inside it. A change that fails
 * leaves neither record: both roll back with it.
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
  private final AuditLog audit;
  private final ResultCodec codec;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final Duration keyLifetime;

  public ChangePublisher(IdempotencyStore records, AuditLog audit, ResultCodec codec,
      UnitOfWork unitOfWork, Clock clock, Duration keyLifetime) {
    this.records = records;
    this.audit = audit;
    this.codec = codec;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.keyLifetime = keyLifetime;
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

  /**
   * Runs {@code writes} and records {@code changes} in the audit log and {@code result} for the
   * request's key, in one transaction. An empty list of changes records nothing in the log (a
   * commit that changed nothing).
   */
  public <R> R publish(OrgContext context, List<AuditedChange> changes, R result,
      Runnable writes) {
    Optional<IdempotencyKey> key = context.request().idempotencyKey();
    String encoded = key.isPresent() && result != null ? codec.encode(result) : "";
    unitOfWork.inTransaction(() -> {
      writes.run();
      record(context, changes, key, () -> encoded);
    });
    return result;
  }

  /** {@link #publish(OrgContext, List, Object, Runnable)} for one change. */
  public <R> R publish(OrgContext context, AuditedChange change, R result, Runnable writes) {
    return publish(context, List.of(change), result, writes);
  }

  /** {@link #publish(OrgContext, List, Object, Runnable)} for one change without a result. */
  public void publish(OrgContext context, AuditedChange change, Runnable writes) {
    publish(context, List.of(change), null, writes);
  }

  /**
   * Like {@link #publish(OrgContext, AuditedChange, Object, Runnable)} for a change whose result
   * only its writes can make (it reads what they wrote); the result is then encoded inside the
   * transaction, when the request has a key.
   */
  public <R> R publishResultOf(OrgContext context, AuditedChange change, Supplier<R> writes) {
    return publishResultOf(context, writes, result -> change);
  }

  /**
   * {@link #publishResultOf(OrgContext, AuditedChange, Supplier)} for a change the audit log can
   * only describe once it is made (it names what the writes created).
   */
  public <R> R publishResultOf(OrgContext context, Supplier<R> writes,
      Function<? super R, AuditedChange> change) {
    Optional<IdempotencyKey> key = context.request().idempotencyKey();
    return unitOfWork.inTransaction(() -> {
      R result = writes.get();
      record(context, List.of(change.apply(result)), key,
          () -> result != null ? codec.encode(result) : "");
      return result;
    });
  }

  private void record(OrgContext context, List<AuditedChange> changes,
      Optional<IdempotencyKey> key, Supplier<String> encodedResult) {
    Instant now = clock.instant();
    if (!changes.isEmpty()) {
      audit.append(context.org().id(), now, context.caller().principal(),
          context.request().requestId(), changes);
    }
    key.ifPresent(k -> {
      boolean first = records.record(context.org().id(), context.caller().principal().id(),
          k.key(), new IdempotencyStore.Recorded(k.requestFingerprint(), encodedResult.get()),
          now.plus(keyLifetime), now);
      if (!first) {
        // Another request with this key made its change first; this one must not count twice.
        throw new CommitFailedException("A request with Idempotency-Key '%s' was processed "
            + "concurrently; retry to get its result", k.key());
      }
    });
  }
}
