package io.floe.adapters.persistence.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.adapters.persistence.jooq.CommitOutcomes.Committing;
import io.floe.adapters.persistence.jooq.CommitOutcomes.Outcome;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.TransactionOutcomeUnknownException;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * How the outcome of a transaction whose connection broke while it committed is decided, on a
 * real PostgreSQL. A server that restarted since is simulated by a start time that is not the
 * server's: after a crash the restarted server may have given the transaction's id to another,
 * so that its status no longer speaks for the transaction, and only the transaction's own row
 * (its witness) does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommitOutcomesTest {
  private static final RuntimeException BROKEN = new IllegalStateException("connection broke");
  private DatabaseSettings settings;
  private Database database;
  private CommitOutcomes outcomes;
  private Connection connection;
  private OffsetDateTime serverStarted;

  @BeforeAll
  void open() throws SQLException {
    settings = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    database = Database.open(settings, 2);
    outcomes = new CommitOutcomes(settings);
    connection = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password());
    serverStarted = query("select pg_postmaster_start_time()", OffsetDateTime.class);
  }

  @AfterAll
  void close() throws SQLException {
    connection.close();
    database.close();
  }

  @Test
  void theSameServerIsBelievedOnCommittedAndAborted() throws SQLException {
    assertThat(decide(transaction(true), serverStarted, null)).hasValue(Outcome.COMMITTED);
    assertThat(decide(transaction(false), serverStarted, null)).hasValue(Outcome.NOT_COMMITTED);
  }

  @Test
  void anIdTheServerNeverHandedOutDidNotCommit() throws SQLException {
    String future = Long.toString(Long.parseLong(transaction(true)) + 1_000_000);
    assertThat(decide(future, serverStarted, null)).hasValue(Outcome.NOT_COMMITTED);
  }

  @Test
  void afterARestartACommittedIdWithoutTheTransactionsRowWasAnotherTransaction()
      throws SQLException {
    // The id committed, but as another transaction's: the witness row is not there.
    assertThat(decide(transaction(true), restarted(), UUID.randomUUID()))
        .hasValue(Outcome.NOT_COMMITTED);
  }

  @Test
  void afterARestartTheTransactionsRowSaysItCommitted() throws SQLException {
    UUID witness = committedAuditRow();
    assertThat(decide(transaction(false), restarted(), witness)).hasValue(Outcome.COMMITTED);
  }

  @Test
  void afterARestartACommittedIdWithoutAWitnessIsUnknownButAnAbortedOneIsNot()
      throws SQLException {
    String committed = transaction(true);
    assertThatThrownBy(() -> decide(committed, restarted(), null))
        .isInstanceOf(TransactionOutcomeUnknownException.class);
    assertThat(decide(transaction(false), restarted(), null)).hasValue(Outcome.NOT_COMMITTED);
  }

  @Test
  void theWitnessOfASavepointThatRolledBackIsForgotten() {
    UUID kept = UUID.randomUUID();
    UUID rolledBack = UUID.randomUUID();
    UUID witness = outcomes.commit(() -> {
      outcomes.witnessedBy(kept);
      try {
        outcomes.nested(() -> {
          outcomes.witnessedBy(rolledBack);
          throw new IllegalStateException("the savepoint rolls back");
        });
      } catch (IllegalStateException expected) {
        // the outer transaction goes on
      }
      return outcomes.currentWitness();
    });
    assertThat(witness).isEqualTo(kept);
    assertThat(outcomes.currentWitness()).as("none outside a transaction").isNull();
  }

  private Optional<Outcome> decide(String transactionId, OffsetDateTime started, UUID witness)
      throws SQLException {
    return outcomes.decide(connection, new Committing(transactionId, 0, started, witness, null),
        BROKEN);
  }

  private OffsetDateTime restarted() {
    return serverStarted.minusHours(1);
  }

  /** The id of a transaction that wrote a row and then committed or rolled back. */
  private String transaction(boolean commit) throws SQLException {
    try (Connection own = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password()); Statement statement = own.createStatement()) {
      own.setAutoCommit(false);
      statement.execute("create temporary table if not exists scratch (x int)");
      statement.execute("insert into scratch values (1)");
      String id;
      try (ResultSet row = statement.executeQuery("select pg_current_xact_id()::text")) {
        row.next();
        id = row.getString(1);
      }
      if (commit) {
        own.commit();
      } else {
        own.rollback();
      }
      return id;
    }
  }

  /** The event id of an audit row appended in a committed transaction. */
  private UUID committedAuditRow() throws SQLException {
    UUID org = UUID.randomUUID();
    new JooqOrgStore(database, TestDatabases.cipher())
        .insertOrg(new Org(org, new OrgName("o" + org.toString().substring(0, 8)), true));
    String request = UUID.randomUUID().toString();
    database.inTransaction(() -> {
      new JooqAuditLog(database).append(org, Instant.now(),
          new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada"), request,
          List.of(AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "s.t")));
      return null;
    });
    try (var select = connection.prepareStatement(
        "select event_id from audit_log where request_id = ?")) {
      select.setString(1, request);
      try (ResultSet row = select.executeQuery()) {
        row.next();
        return row.getObject(1, UUID.class);
      }
    }
  }

  private <T> T query(String sql, Class<T> type) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getObject(1, type);
    }
  }
}
