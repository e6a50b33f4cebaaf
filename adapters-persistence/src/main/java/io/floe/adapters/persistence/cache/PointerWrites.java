package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.jooq.AdvisoryLocks;
import io.floe.adapters.persistence.jooq.CatalogObjectWrites;
import io.floe.adapters.persistence.jooq.Database;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.jooq.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every change to an existing table or view's row, on any server, keeps every server's
 * {@link PointerCache} from serving that object from before the change is committed until a load
 * can read it anew. That makes loads linearizable with commits across any number of servers:
 *
 * <ol>
 *   <li><b>Fence.</b> In the write's transaction, before its first change, one statement takes
 *   the writes lock shared (held until the transaction ends), gives the transaction's id, and
 *   lists the listening connections holding the readers lock ({@link ReplicaPresence}): the
 *   servers that may serve pointers from memory. A server that joins later waits for this
 *   transaction to end before it serves anything.</li>
 *   <li><b>Hold here.</b> This server holds the object ({@link PointerCache#hold}): from now until
 *   the transaction has ended it serves the object only from PostgreSQL.</li>
 *   <li><b>Hold everywhere.</b> If other servers were listed, the notice {@code W} (writer,
 *   transaction, object) goes to the channel {@value PointerNotices#CHANNEL} on a connection of
 *   its own, and the write waits until each listed server has answered {@code A} on its listening
 *   connection, which it does right after it has held the object. A server that does not answer
 *   is waited for until {@link #patience} after the notice was committed: by then its own
 *   heartbeat has lapsed ({@link CacheInvalidations#TRUST}), so it serves nothing from memory, or
 *   a heartbeat that began after the notice has delivered it. A server whose listening session has
 *   not run a statement for longer than the heartbeat's trust (PostgreSQL's own clock tells) has
 *   lapsed already, and is not waited for; one quiet for {@link #UNANSWERING} has its session
 *   ended, so that later writes no longer list it (it joins again when it wakes).</li>
 *   <li><b>Change, commit.</b> Only then is the change sent. Its transaction commits with the
 *   change's announcement {@code C} (a trigger of migration V12).</li>
 *   <li><b>Release.</b> When the transaction has ended, this server releases the object before
 *   the request is answered; every other server releases it when it hears {@code C}, or when
 *   PostgreSQL says the transaction is no longer in progress (one that rolled back announces
 *   nothing). A load that begins after a release reads PostgreSQL again and keeps what it
 *   read.</li>
 * </ol>
 * So from before a change is visible in PostgreSQL until after it is, no server serves the
 * object's old pointer from memory: a load that begins after a commit was acknowledged, or after
 * another load saw it, sees it on every server. A server frozen anywhere in this (a stopped
 * process, a stalled listener) serves from memory again only after a heartbeat that delivered
 * every notice sent while it was frozen. Writes to other objects hold nothing of this one: loads
 * of the tables nobody is writing stay in memory while others commit.
 */
public final class PointerWrites implements CatalogObjectWrites {
  /** A listening session quiet this long belongs to a server that is gone or stalled. */
  static final Duration UNANSWERING = Duration.ofSeconds(5);
  /** How long a write waits for answers before it asks PostgreSQL who has lapsed. */
  private static final Duration FIRST_WAIT = Duration.ofMillis(50);
  private static final Logger LOG = LoggerFactory.getLogger(PointerWrites.class);
  /** The readers are listed after the lock is taken: the lateral subquery depends on it. */
  private static final String FENCE = "select txid_current(), readers.pids from"
      + " (select pg_advisory_xact_lock_shared(" + AdvisoryLocks.FLOE + ", "
      + ReplicaPresence.WRITES + ")::text as locked) fence,"
      + " lateral (select array(select pid from pg_locks where "
      + ReplicaPresence.lockIs(ReplicaPresence.READERS)
      + " and granted and fence.locked is not null) as pids) readers";

  private final Database database;
  private final PointerCache cache;
  private final PointerNotices.Sender sender;
  private final IntSupplier ownListener;
  private final Duration patience;
  /** Notices awaiting answers, by notice id. */
  private final Map<String, Answers> awaited = new ConcurrentHashMap<>();
  /** The write transaction open on the calling thread. */
  private final ThreadLocal<OpenWrite> open = new ThreadLocal<>();

  private static final class OpenWrite {
    final long transaction;
    final Set<Integer> readers;
    final Set<UUID> held = new HashSet<>();
    int notices;

    OpenWrite(long transaction, Set<Integer> readers) {
      this.transaction = transaction;
      this.readers = readers;
    }
  }

  /**
   * {@code ownListener}: the backend process id of this server's listening connection (0 while
   * it has none); {@code trust}: how long a server serves pointers after its last heartbeat began.
   */
  PointerWrites(Database database, PointerCache cache, PointerNotices.Sender sender,
      IntSupplier ownListener, Duration trust) {
    this.database = database;
    this.cache = cache;
    this.sender = sender;
    this.ownListener = ownListener;
    // A margin for the servers' clocks running at slightly different rates, and for scheduling.
    this.patience = trust.plus(trust.dividedBy(20)).plusMillis(20);
  }

  @Override
  public void beforeWrite(UUID objectId) {
    OpenWrite write = open.get();
    if (write == null) {
      write = fence();
      // The release is registered before anything is held, so nothing stays held.
      long transaction = write.transaction;
      database.whenTransactionEnds(() -> {
        open.remove();
        cache.release(transaction);
      });
      open.set(write);
    }
    if (!write.held.add(objectId)) {
      return;
    }
    cache.hold(write.transaction, List.of(objectId), true);
    if (!write.readers.isEmpty()) {
      holdEverywhere(write, objectId);
    }
  }

  /** Step 1: the writes lock, the transaction's id, and the other servers that keep pointers. */
  private OpenWrite fence() {
    Record row = database.dsl().fetchOne(FENCE);
    Set<Integer> readers = new HashSet<>(List.of(row.get(1, Integer[].class)));
    readers.remove(ownListener.getAsInt());
    return new OpenWrite(row.get(0, Long.class), readers);
  }

  /** Step 3: every other server holds the object before the change is sent. */
  private void holdEverywhere(OpenWrite write, UUID objectId) {
    write.notices++;
    String id = write.transaction + ":" + write.notices;
    Answers answers = new Answers(write.readers);
    awaited.put(id, answers);
    try {
      sender.send(PointerNotices.writing(ownListener.getAsInt(), id, objectId));
      long sent = System.nanoTime();
      if (answers.await(sent + FIRST_WAIT.toNanos())) {
        return;
      }
      answers.excuse(lapsed(answers.remaining()));
      if (!answers.await(sent + patience.toNanos())) {
        LOG.warn("servers {} did not answer a write's notice within {} ms; their heartbeats have "
            + "lapsed, so they serve no pointer from memory", answers.remaining(),
            patience.toMillis());
      }
    } finally {
      awaited.remove(id);
    }
  }

  /**
   * Of {@code pids}, the listening sessions that have not begun a statement for longer than
   * {@link #patience}, by PostgreSQL's clock: their servers' heartbeats have lapsed. Sessions quiet
   * for {@link #UNANSWERING} are ended. A session that is gone is not counted: its server's last
   * heartbeat may be recent. Asked on the notices' own connection, outside the write's
   * transaction, which a refused request must not abort.
   */
  private Set<Integer> lapsed(Set<Integer> pids) {
    Set<Integer> lapsed = new HashSet<>();
    if (pids.isEmpty()) {
      return lapsed;
    }
    for (PointerNotices.Quiet session : sender.quiet(pids)) {
      if (session.quietNanos() > patience.toNanos()) {
        lapsed.add(session.pid());
      }
      if (session.quietNanos() > UNANSWERING.toNanos() && sender.end(session.pid())) {
        LOG.warn("a Floe server's listening session (PostgreSQL process {}) ran no statement "
            + "for {} s: ended it, and the server joins again when it wakes", session.pid(),
            UNANSWERING.toSeconds());
      }
    }
    return lapsed;
  }

  /** Called by the listener: the server listening on {@code pid} has held for notice {@code id}. */
  void answered(int pid, String id) {
    Answers answers = awaited.get(id);
    if (answers != null) {
      answers.answered(pid);
    }
  }

  /** The servers a notice still waits for. */
  private static final class Answers {
    private final Set<Integer> remaining;

    Answers(Set<Integer> from) {
      this.remaining = new HashSet<>(from);
    }

    synchronized void answered(int pid) {
      if (remaining.remove(pid) && remaining.isEmpty()) {
        notifyAll();
      }
    }

    synchronized void excuse(Set<Integer> pids) {
      remaining.removeAll(pids);
    }

    synchronized Set<Integer> remaining() {
      return Set.copyOf(remaining);
    }

    /** Whether every server has answered by {@code deadline} (System.nanoTime()). */
    synchronized boolean await(long deadline) {
      while (!remaining.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new ServiceUnavailableException("Interrupted while waiting to write");
        }
      }
      return true;
    }
  }
}
