package io.floe.adapters.persistence.embedded;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.CopyOut;

/**
 * Copies every row of one PostgreSQL database into another whose tables the same migrations made,
 * the way {@code pg_dump | psql} would, over two JDBC connections: the old database read in one
 * snapshot, each table streamed with {@code COPY} in the order its foreign keys need, sequences
 * set to where they were, all in one transaction on the new side that commits only if every
 * table then holds the same rows as the old one (same count, same digest of the rows' text).
 */
final class LogicalCopy {
  /** Session settings under which both servers print and parse values alike (as pg_dump's). */
  private static final List<String> SESSION = List.of("SET DateStyle = ISO",
      "SET TimeZone = 'UTC'", "SET IntervalStyle = postgres", "SET extra_float_digits = 3",
      "SET bytea_output = hex", "SET client_min_messages = warning");
  private static final BigInteger DIGEST_MODULUS = BigInteger.ONE.shiftLeft(128);

  /** What was copied. */
  record Report(int tables, long rows, int sequences) {}

  private record Table(String schema, String name) {
    String sql() {
      return quote(schema) + "." + quote(name);
    }

    @Override
    public String toString() {
      return schema + "." + name;
    }
  }

  private LogicalCopy() {}

  static Report copy(Connection from, Connection to) throws SQLException {
    from.setAutoCommit(false);
    from.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    from.setReadOnly(true);
    prepare(from);
    to.setAutoCommit(false);
    prepare(to);
    try {
      List<Table> tables = tables(from);
      Set<Table> present = new HashSet<>(tables(to));
      for (Table table : tables) {
        if (!present.contains(table)) {
          throw new IllegalStateException("the new database has no table " + table
              + ", which the old one has: nothing is copied");
        }
      }
      List<Table> ordered = dependencyOrder(to, tables);
      if (!tables.isEmpty()) {
        // The migrations may have inserted rows of their own; the old database has them too.
        execute(to, "TRUNCATE " + tables.stream().map(Table::sql).collect(Collectors.joining(", ")));
      }
      CopyManager reader = from.unwrap(PGConnection.class).getCopyAPI();
      CopyManager writer = to.unwrap(PGConnection.class).getCopyAPI();
      long rows = 0;
      for (Table table : ordered) {
        String columns = columns(from, table);
        long copied = stream(reader, writer, "COPY " + table.sql() + " (" + columns + ")");
        verify(from, to, table, copied);
        rows += copied;
      }
      int sequences = copySequences(from, to);
      to.commit();
      from.commit();
      return new Report(tables.size(), rows, sequences);
    } catch (SQLException | RuntimeException e) {
      to.rollback();
      from.rollback();
      throw e;
    }
  }

  private static void prepare(Connection connection) throws SQLException {
    for (String setting : SESSION) {
      execute(connection, setting);
    }
  }

  private static long stream(CopyManager reader, CopyManager writer, String copy)
      throws SQLException {
    CopyOut out = reader.copyOut(copy + " TO STDOUT");
    CopyIn in = writer.copyIn(copy + " FROM STDIN");
    try {
      byte[] chunk;
      while ((chunk = out.readFromCopy()) != null) {
        in.writeToCopy(chunk, 0, chunk.length);
      }
      return in.endCopy();
    } finally {
      if (in.isActive()) {
        in.cancelCopy();
      }
      if (out.isActive()) {
        out.cancelCopy();
      }
    }
  }

  /** Both sides hold the same number of rows, and the same rows: an order-free digest of them. */
  private static void verify(Connection from, Connection to, Table table, long copied)
      throws SQLException {
    long[] oldCount = new long[1];
    long[] newCount = new long[1];
    BigInteger oldDigest = digest(from, table, oldCount);
    BigInteger newDigest = digest(to, table, newCount);
    if (oldCount[0] != copied || newCount[0] != copied || !oldDigest.equals(newDigest)) {
      throw new IllegalStateException("the copy of " + table + " differs from the original ("
          + oldCount[0] + " rows, " + copied + " copied, " + newCount[0] + " in the copy)");
    }
  }

  private static BigInteger digest(Connection connection, Table table, long[] count)
      throws SQLException {
    BigInteger sum = BigInteger.ZERO;
    try (Statement statement = connection.createStatement()) {
      statement.setFetchSize(1000);
      try (ResultSet rows = statement.executeQuery(
          "SELECT md5(t::text) FROM " + table.sql() + " t")) {
        while (rows.next()) {
          sum = sum.add(new BigInteger(rows.getString(1), 16));
          count[0]++;
        }
      }
    }
    return sum.mod(DIGEST_MODULUS);
  }

  private static int copySequences(Connection from, Connection to) throws SQLException {
    int copied = 0;
    for (Table sequence : relations(from, "S")) {
      try (Statement read = from.createStatement();
          ResultSet state = read.executeQuery(
              "SELECT last_value, is_called FROM " + sequence.sql());
          PreparedStatement set = to.prepareStatement("SELECT setval(?::regclass, ?, ?)")) {
        state.next();
        set.setString(1, sequence.sql());
        set.setLong(2, state.getLong(1));
        set.setBoolean(3, state.getBoolean(2));
        set.execute();
        copied++;
      }
    }
    return copied;
  }

  private static List<Table> tables(Connection connection) throws SQLException {
    return relations(connection, "r");
  }

  private static List<Table> relations(Connection connection, String kind) throws SQLException {
    List<Table> relations = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement("""
        SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = ? AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_%'
        ORDER BY 1, 2""")) {
      statement.setString(1, kind);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          relations.add(new Table(rows.getString(1), rows.getString(2)));
        }
      }
    }
    return relations;
  }

  /** The columns that hold data (not dropped, not generated), in the table's order. */
  private static String columns(Connection connection, Table table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement("""
        SELECT attname FROM pg_attribute
        WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
        ORDER BY attnum""")) {
      statement.setString(1, table.sql());
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          columns.add(quote(rows.getString(1)));
        }
      }
    }
    return String.join(", ", columns);
  }

  /**
   * The tables ordered so that every table comes after those its foreign keys reference, as the
   * new database declares them. A cycle of foreign keys (none in Floe's schema) is copied with
   * the keys' checks off: the rows come from a database that checked them.
   */
  private static List<Table> dependencyOrder(Connection to, List<Table> tables)
      throws SQLException {
    Map<Table, Set<Table>> references = new HashMap<>();
    tables.forEach(table -> references.put(table, new LinkedHashSet<>()));
    try (Statement statement = to.createStatement(); ResultSet rows = statement.executeQuery("""
        SELECT cn.nspname, c.relname, fn.nspname, f.relname FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
        JOIN pg_class f ON f.oid = k.confrelid JOIN pg_namespace fn ON fn.oid = f.relnamespace
        WHERE k.contype = 'f'""")) {
      while (rows.next()) {
        Table table = new Table(rows.getString(1), rows.getString(2));
        Table referenced = new Table(rows.getString(3), rows.getString(4));
        if (!table.equals(referenced) && references.containsKey(table)
            && references.containsKey(referenced)) {
          references.get(table).add(referenced);
        }
      }
    }
    List<Table> ordered = new ArrayList<>();
    Set<Table> placed = new HashSet<>();
    Deque<Table> pending = new ArrayDeque<>(tables);
    boolean progress = true;
    while (!pending.isEmpty() && progress) {
      progress = false;
      for (int i = pending.size(); i > 0; i--) {
        Table table = pending.poll();
        if (placed.containsAll(references.get(table))) {
          ordered.add(table);
          placed.add(table);
          progress = true;
        } else {
          pending.add(table);
        }
      }
    }
    if (!pending.isEmpty()) {
      execute(to, "SET session_replication_role = replica");
      ordered.addAll(pending);
    }
    return ordered;
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
