package io.floe.adapters.persistence.jooq;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.SchemaMigrations;
import io.floe.application.port.out.DatabaseHealth;
import io.floe.application.port.out.UnitOfWork;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.ThreadLocalTransactionProvider;

/**
 * The catalog database: a HikariCP pool, the schema migrated by Flyway on open, and a jOOQ context
 * whose transactions are bound to the calling thread, so every store joins the unit of work that
 * is open on its thread. It counts the statements and commits it sends and tells listeners which
 * tables each committed write changed. A database it cannot reach is a 503 to the caller, never a
 * guess about what was written.
 */
public final class Database implements UnitOfWork, DatabaseHealth, AutoCloseable {
  /** Named among the tables a write changed when the write's table could not be told. */
  public static final String UNKNOWN_TABLE = StatementTracker.UNKNOWN_TABLE;

  private final DatabaseSettings settings;
  private final HikariDataSource dataSource;
  private final StatementTracker tracker = new StatementTracker();
  private final CommitOutcomes outcomes;
  private final DSLContext dsl;

  private Database(DatabaseSettings settings, HikariDataSource dataSource) {
    this.settings = settings;
    this.dataSource = dataSource;
    this.outcomes = new CommitOutcomes(settings);
    DefaultConfiguration configuration = new DefaultConfiguration();
    configuration.set(SQLDialect.POSTGRES);
    configuration.set(new ThreadLocalTransactionProvider(
        new ConnectionLoss.Connections(dataSource)));
    configuration.set(tracker, outcomes, new ConnectionLoss());
    configuration.settings().withExecuteLogging(false);
    this.dsl = DSL.using(configuration);
  }

  /** Connects, migrates the schema to the newest version, and returns the ready database. */
  public static Database open(DatabaseSettings settings, int maxPoolSize) {
    return open(settings, maxPoolSize, Optional.empty());
  }

  /** Like {@link #open(DatabaseSettings, int)}, reporting the pool's use to {@code metrics}. */
  public static Database open(DatabaseSettings settings, int maxPoolSize,
      Optional<MetricsTrackerFactory> metrics) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.jdbcUrl());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(maxPoolSize);
    config.setPoolName("floe-catalog");
    config.setConnectionTimeout(10_000);
    metrics.ifPresent(config::setMetricsTrackerFactory);
    HikariDataSource dataSource = new HikariDataSource(config);
    try {
      SchemaMigrations.migrate(dataSource);
      return new Database(settings, dataSource);
    } catch (RuntimeException e) {
      dataSource.close();
      throw e;
    }
  }

  public DSLContext dsl() {
    return dsl;
  }

  /** How this database is reached: for the few connections that live outside the pool. */
  public DatabaseSettings settings() {
    return settings;
  }

  DataSource dataSource() {
    return dataSource;
  }

  /**
   * {@inheritDoc} A lost connection is a {@link
   * io.floe.application.port.out.DatabaseUnavailableException} ({@link ConnectionLoss}); one lost
   * while the transaction committed is resolved by asking the database ({@link CommitOutcomes}).
   */
  @Override
  public <T> T inTransaction(Supplier<T> work) {
    if (tracker.transactionOpen()) {
      return outcomes.nested(() -> tracker.inTransaction(() -> dsl.transactionResult(work::get)));
    }
    return tracker.inTransaction(() -> outcomes.commit(() ->
        dsl.transactionResult(() -> outcomes.beforeCommit(dsl, work.get()))));
  }

  /**
   * Calls {@code listener} with the names of the tables a write changed, once the write is
   * committed (right after an autocommitted statement, after the commit of a transaction), on the
   * thread that wrote and before it goes on.
   */
  public void onCommittedWrites(Consumer<Set<String>> listener) {
    tracker.onCommittedWrites(listener);
  }

  /**
   * Runs {@code action} on this thread once the transaction open on it has ended, committed or
   * rolled back, before {@link #inTransaction} returns or throws.
   *
   * @throws IllegalStateException when no transaction is open on this thread
   */
  public void whenTransactionEnds(Runnable action) {
    tracker.whenTransactionEnds(action);
  }

  /**
   * Notes that the open transaction wrote the audit row of {@code eventId}, whose presence later
   * tells whether it committed should its connection break while it commits.
   */
  void witnessCommitBy(UUID eventId) {
    outcomes.witnessedBy(eventId);
  }

  /** Whether the calling thread is inside {@link #inTransaction}. */
  public boolean transactionOpen() {
    return tracker.transactionOpen();
  }

  /** The tables the calling thread's open transaction has written so far; empty outside one. */
  public Set<String> tablesWrittenByOpenTransaction() {
    return tracker.writtenByOpenTransaction();
  }

  /** Statements sent so far: what requests cost in round trips. */
  public long statementsExecuted() {
    return tracker.statements();
  }

  /** Transactions committed so far, autocommitted writes included. */
  public long commits() {
    return tracker.commits();
  }

  @Override
  public boolean isReachable() {
    try {
      return dsl.selectOne().fetchOne() != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
