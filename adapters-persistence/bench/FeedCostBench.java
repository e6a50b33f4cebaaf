import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.adapters.persistence.jooq.Database;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import org.jooq.DSLContext;

/**
 * What the change feed adds to a commit's transaction. A commit's transaction is a pointer update
 * and its audit row; the feed makes that row carry an event id and its transaction id (both
 * column defaults) and keeps one more index. "feed" runs the transaction on the audit log as it
 * is, "plain" on a copy without the feed's columns and index, alternating the two so that both
 * see the same machine. Prints one JSON line, in microseconds.
 *
 * <p>Usage: {@code java -cp bootstrap/target/floe.jar FeedCostBench.java <work dir> <rounds>}
 */
public class FeedCostBench {
  private static final int WARMUP = 200;
  private static final String DETAILS = "{\"namespace\":\"sales\","
      + "\"metadata_location\":\"s3://b/ns/t/metadata/00001.metadata.json\","
      + "\"previous_metadata_location\":\"s3://b/ns/t/metadata/00000.metadata.json\","
      + "\"updates\":[\"add-snapshot\",\"set-snapshot-ref\"],\"snapshot_id\":123456789,"
      + "\"added_snapshots\":[{\"snapshot_id\":123456789,\"operation\":\"append\","
      + "\"summary\":{\"added-records\":\"3\",\"added-data-files\":\"1\"}}]}";

  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[1]);
    try (EmbeddedPostgresServer postgres =
            EmbeddedPostgresServer.start(Path.of(args[0]).resolve("pg"));
        Database database = Database.open(postgres.settings(), 4)) {
      DSLContext dsl = database.dsl();
      UUID org = UUID.randomUUID();
      dsl.execute("insert into orgs (id, name, iceberg_enabled) values (?, 'bench', true)", org);
      dsl.execute("create table pointer_bench (id int primary key, location text)");
      dsl.execute("insert into pointer_bench values (1, 'v0')");
      // The audit log as it was before the feed (dropping txid drops the feed's index too).
      dsl.execute("create table audit_plain (like audit_log including defaults including indexes"
          + " including identity)");
      dsl.execute("alter table audit_plain drop column event_id, drop column txid");
      long[] feed = new long[rounds];
      long[] plain = new long[rounds];
      for (int i = 0; i < rounds + WARMUP; i++) {
        String[] order = i % 2 == 0 ? new String[] {"audit_log", "audit_plain"}
            : new String[] {"audit_plain", "audit_log"};
        for (String table : order) {
          String location = "v" + i;
          long start = System.nanoTime();
          database.inTransaction(() -> {
            dsl.execute("update pointer_bench set location = ? where id = 1", location);
            dsl.execute("insert into " + table + " (org_id, recorded_at, principal_id,"
                + " principal_name, action, target_kind, target_name, details, request_id)"
                + " values (?, now(), ?, 'ada', 'table.commit', 'table', 'sales.orders',"
                + " ?::jsonb, 'r')", org, org, DETAILS);
            return null;
          });
          long micros = (System.nanoTime() - start) / 1000;
          if (i >= WARMUP) {
            (table.equals("audit_log") ? feed : plain)[i - WARMUP] = micros;
          }
        }
      }
      Arrays.sort(feed);
      Arrays.sort(plain);
      System.out.printf("{\"rounds\":%d,\"plain_p50_us\":%d,\"feed_p50_us\":%d,"
              + "\"plain_p90_us\":%d,\"feed_p90_us\":%d,\"plain_mean_us\":%.0f,"
              + "\"feed_mean_us\":%.0f}%n", rounds, plain[rounds / 2], feed[rounds / 2],
          plain[rounds * 9 / 10], feed[rounds * 9 / 10],
          Arrays.stream(plain).average().orElse(0), Arrays.stream(feed).average().orElse(0));
    }
  }
}
