package io.floe.adapters.persistence;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.floe.application.port.out.DatabaseHealth;
import io.floe.application.port.out.UnitOfWork;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.ThreadLocalTransactionProvider;

/**
 * The catalog database: a HikariCP pool, the schema migrated by Flyway on open, and a jOOQ context
 * whose transactions are bound to the calling thread, so every store joins the unit of work that
 * is open on its thread.
 */
public final class Database implements UnitOfWork, DatabaseHealth, AutoCloseable {
  private final HikariDataSource dataSource;
  private final DSLContext dsl;

  private Database(HikariDataSource dataSource) {
    this.dataSource = dataSource;
    DefaultConfiguration configuration = new DefaultConfiguration();
    configuration.set(SQLDialect.POSTGRES);
    configuration.set(new ThreadLocalTransactionProvider(
        new DataSourceConnectionProvider(dataSource)));
    configuration.settings().withExecuteLogging(false);
    this.dsl = DSL.using(configuration);
  }

  /** Connects, migrates the schema to the newest version, and returns the ready database. */
  public static Database open(DatabaseSettings settings, int maxPoolSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.jdbcUrl());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(maxPoolSize);
    config.setPoolName("floe-catalog");
    config.setConnectionTimeout(10_000);
    HikariDataSource dataSource = new HikariDataSource(config);
    try {
      SchemaMigrations.migrate(dataSource);
      return new Database(dataSource);
    } catch (RuntimeException e) {
      dataSource.close();
      throw e;
    }
  }

  public DSLContext dsl() {
    return dsl;
  }

  @Override
  public <T> T inTransaction(Supplier<T> work) {
    return dsl.transactionResult(work::get);
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
