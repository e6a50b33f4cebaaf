package io.floe.adapters.persistence.jooq;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.ExecuteType;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.impl.QOM;

/**
 * Watches every statement Floe sends: counts statements and commits (what a request costs in
 * round trips), and tells listeners which tables a write changed once it is committed, so that
 * this server drops what it cached from them before it answers the request that wrote. It reports
 * exactly the changes that the triggers of migration V10 announce to the other servers.
 *
 * <p>A write outside a transaction is reported as soon as it ran; inside one (see
 * {@link #inTransaction}), once the transaction has committed, and never if it rolled back. A
 * write whose table cannot be told is reported as {@link #UNKNOWN_TABLE}.
 */
final class StatementTracker implements ExecuteListener {
  /** Stands for a write to a table that could not be told from the statement. */
  static final String UNKNOWN_TABLE = "*";

  /**
   * Tables whose updates V10 announces only when they set one of these columns: recording a
   * token's use and moving a table's metadata pointer change nothing a server caches.
   */
  private static final Map<String, Set<String>> ANNOUNCING_COLUMNS = Map.of(
      "api_tokens", Set.of("principal_id", "secret_hash", "expires_at", "revoked_at"),
      "catalog_objects", Set.of("namespace_id", "name"));
  /** Tables whose inserts V10 does not announce: a new table or view moves no grant. */
  private static final Set<String> UNANNOUNCED_INSERTS = Set.of("catalog_objects");

  private final LongAdder statements = new LongAdder();
  private final LongAdder commits = new LongAdder();
  private final List<Consumer<Set<String>>> listeners = new CopyOnWriteArrayList<>();
  private final ThreadLocal<Set<String>> openTransaction = new ThreadLocal<>();
  /** What runs once the calling thread's open transaction has ended, committed or not. */
  private final ThreadLocal<List<Runnable>> whenTransactionEnds = new ThreadLocal<>();

  void onCommittedWrites(Consumer<Set<String>> listener) {
    listeners.add(listener);
  }

  /**
   * The tables the calling thread's open transaction has written so far (nothing outside a
   * transaction): a cache of those tables would answer it with what it has just changed.
   */
  boolean transactionOpen() {
    return openTransaction.get() != null;
  }

  Set<String> writtenByOpenTransaction() {
    Set<String> open = openTransaction.get();
    return open == null ? Set.of() : Set.copyOf(open);
  }

  /**
   * Runs {@code action} on this thread once its open transaction has ended, committed or rolled
   * back, before {@link #inTransaction} returns or throws.
   *
   * @throws IllegalStateException outside a transaction
   */
  void whenTransactionEnds(Runnable action) {
    List<Runnable> actions = whenTransactionEnds.get();
    if (actions == null) {
      throw new IllegalStateException("no transaction is open on this thread");
    }
    actions.add(action);
  }

  long statements() {
    return statements.sum();
  }

  long commits() {
    return commits.sum();
  }

  /**
   * Runs {@code transaction}, which commits when it returns normally; the writes made in it are
   * reported after that. A transaction begun inside another joins it.
   */
  <T> T inTransaction(Supplier<T> transaction) {
    if (openTransaction.get() != null) {
      return transaction.get();
    }
    Set<String> written = new HashSet<>();
    List<Runnable> endActions = new ArrayList<>();
    openTransaction.set(written);
    whenTransactionEnds.set(endActions);
    T result;
    try {
      result = transaction.get();
    } finally {
      openTransaction.remove();
      whenTransactionEnds.remove();
      endActions.forEach(Runnable::run);
    }
    commits.increment();
    if (!written.isEmpty()) {
      announce(written);
    }
    return result;
  }

  @Override
  public void executeEnd(ExecuteContext ctx) {
    statements.increment();
    Query query = unwrapReturning(ctx.query());
    boolean write = query instanceof QOM.Update<?> || query instanceof QOM.Insert<?>
        || query instanceof QOM.Delete<?> || ctx.type() == ExecuteType.WRITE
        || ctx.type() == ExecuteType.DDL || ctx.type() == ExecuteType.BATCH;
    if (!write) {
      return;
    }
    String table = announcedTable(query);
    Set<String> open = openTransaction.get();
    if (open != null) {
      if (table != null) {
        open.add(table);
      }
      return;
    }
    commits.increment(); // autocommitted
    if (table != null) {
      announce(Set.of(table));
    }
  }

  private void announce(Set<String> tables) {
    Set<String> copy = Set.copyOf(tables);
    for (Consumer<Set<String>> listener : listeners) {
      listener.accept(copy);
    }
  }

  private static Query unwrapReturning(Query query) {
    if (query instanceof QOM.UpdateReturning<?> returning) {
      return returning.$update();
    }
    if (query instanceof QOM.InsertReturning<?> returning) {
      return returning.$insert();
    }
    if (query instanceof QOM.DeleteReturning<?> returning) {
      return returning.$delete();
    }
    return query;
  }

  /** The table a write changed if V10 announces the change, else null. */
  private static String announcedTable(Query write) {
    if (write instanceof QOM.Update<?> update) {
      String table = update.$table().getName();
      Set<String> announcing = ANNOUNCING_COLUMNS.get(table);
      return announcing == null || update.$set().keySet().stream()
          .anyMatch(column -> column instanceof Field<?> field
              && announcing.contains(field.getName())) ? table : null;
    }
    if (write instanceof QOM.Insert<?> insert) {
      String table = insert.$into().getName();
      return UNANNOUNCED_INSERTS.contains(table) ? null : table;
    }
    if (write instanceof QOM.Delete<?> delete) {
      return delete.$from().getName();
    }
    return UNKNOWN_TABLE;
  }
}
