package io.floe.adapters.persistence.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.DatabaseUnavailableException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

/** Which failures mean the database could not be reached, wherever jOOQ wrapped them. */
class ConnectionLossTest {
  @Test
  void aBrokenOrRefusedConnectionIsALoss() {
    for (String state : new String[] {"08006", "08001", "08003", "57P01", "57P02", "57P03",
        "53300"}) {
      assertThat(ConnectionLoss.in(new DataAccessException("SQL [update ...]",
          new SQLException("lost", state)))).as(state).isTrue();
    }
    assertThat(ConnectionLoss.in(new DataAccessException("Error getting connection",
        new SQLTransientConnectionException("Connection is not available")))).isTrue();
  }

  @Test
  void aRollbackThatFailedAfterALostCommitStillSaysSo() {
    RuntimeException rollback = new DataAccessException("Cannot rollback transaction",
        new SQLException("This connection has been closed.", "08003"));
    RuntimeException commit = new IllegalStateException("rollback failed");
    commit.addSuppressed(rollback);
    assertThat(ConnectionLoss.in(commit)).isTrue();
  }

  @Test
  void whatTheDatabaseRefusedIsNotALoss() {
    assertThat(ConnectionLoss.in(new DataAccessException("duplicate key",
        new SQLException("duplicate key value", "23505")))).isFalse();
    assertThat(ConnectionLoss.in(new DataAccessException("serialization",
        new SQLException("could not serialize", "40001")))).isFalse();
    assertThat(ConnectionLoss.in(new IllegalStateException("no SQL at all"))).isFalse();
  }

  @Test
  void aLossBecomesDatabaseUnavailableAndAnythingElseStaysWhatItWas() {
    RuntimeException lost = new DataAccessException("x", new SQLException("x", "08006"));
    assertThat(ConnectionLoss.translated(lost)).isInstanceOf(DatabaseUnavailableException.class)
        .hasCause(lost);
    RuntimeException refused = new DataAccessException("x", new SQLException("x", "23505"));
    assertThat(ConnectionLoss.translated(refused)).isSameAs(refused);
  }
}
