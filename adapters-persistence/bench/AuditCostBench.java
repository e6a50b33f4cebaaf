import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.adapters.persistence.jooq.JooqAuditLog;
import io.floe.adapters.persistence.jooq.JooqCatalogObjectStore;
import io.floe.adapters.persistence.jooq.JooqNamespaceStore;
import io.floe.adapters.persistence.jooq.JooqOrgStore;
import io.floe.adapters.persistence.jooq.SealingKey;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.application.model.AuditAction;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.Row;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * What the audit insert adds to a commit's transaction. A commit's transaction is the pointer's
 * compare-and-swap (and, with an Idempotency-Key, its record); "swap" times that alone and
 * "swap+audit" the same with the table.commit entry a commit now records, alternating the two so
 * that both see the same machine. Then the same on a log holding many entries, and page reads.
 * Prints one JSON line per measurement, in microseconds.
 *
 * <p>Usage: {@code java -cp <persistence test classpath> AuditCostBench.java <work dir> <rounds>
 * <entries>}
 */
public class AuditCostBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The prefill spreads entries over 1,000 tables; every page read must find a full page. */
  private static final long FEWEST_ENTRIES = 100_000;

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    long entries = Long.parseLong(args[2]);
    if (entries < FEWEST_ENTRIES) {
      throw new IllegalArgumentException("entries must be at least " + FEWEST_ENTRIES
          + " so that one table's page holds 100 entries; got " + entries);
    }
    try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(work.resolve("pg"));
        Database database = Database.open(postgres.settings(), 4)) {
      new AuditCostBench(database).run(rounds, entries);
    }
  }

  private final Database database;
  private final JooqCatalogObjectStore objects;
  private final JooqAuditLog audit;
  private final SecretCipher cipher = new SecretCipher(SealingKey.generate("bench"), List.of());
  private final Org org = new Org(UUID.randomUUID(), new OrgName("bench"), true);
  private final Principal actor = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
  private CatalogObject table;
  private String location = "s3://data/warehouse/ns/t/metadata/00000.metadata.json";
  private int version;

  AuditCostBench(Database database) {
    this.database = database;
    this.objects = new JooqCatalogObjectStore(database, cipher);
    this.audit = new JooqAuditLog(database);
  }

  void run(int rounds, long entries) throws Exception {
    setUp();
    measureCommits("empty log", rounds);
    prefill(entries);
    measureCommits(entries + " entries", rounds);
    measurePages(rounds / 10);
  }

  private void setUp() {
    JooqOrgStore orgs = new JooqOrgStore(database, cipher);
    orgs.insertOrg(org);
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), org.id(), new CatalogName("main"),
        StoragePlatform.S3, "data", new StoragePath("warehouse"), Optional.empty(),
        Optional.of("us-east-1"), false, BucketCredentials.ambient(), true);
    orgs.insertBucket(bucket);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    Namespace namespace = new Namespace(UUID.randomUUID(), org.id(), new CatalogName("ns"),
        bucket.id(), new StoragePath("warehouse/ns"), Map.of(), Optional.empty(), Map.of(),
        Visibility.PRIVATE, now, now, Optional.empty());
    new JooqNamespaceStore(database).insert(namespace);
    table = new CatalogObject(UUID.randomUUID(), namespace.id(), new TableName("t"),
        CatalogObject.Kind.TABLE, location, new StorageLocation(bucket.id(),
            new StoragePath("warehouse/ns/t")), false, now, now);
    objects.insert(table);
  }

  /** Alternates the two transactions, after a warm-up of each, and reports both. */
  private void measureCommits(String log, int rounds) {
    for (int i = 0; i < 500; i++) {
      swap(false);
      swap(true);
    }
    long[] swapOnly = new long[rounds];
    long[] withAudit = new long[rounds];
    for (int i = 0; i < rounds; i++) {
      swapOnly[i] = swap(false);
      withAudit[i] = swap(true);
    }
    report("commit transaction: swap", log, swapOnly);
    report("commit transaction: swap+audit", log, withAudit);
  }

  /** One commit's transaction; returns its duration in nanoseconds. */
  private long swap(boolean recordAudit) {
    String next = "s3://data/warehouse/ns/t/metadata/" + (++version) + ".metadata.json";
    String previous = location;
    long start = System.nanoTime();
    database.inTransaction(() -> {
      if (!objects.swap(List.of(Move.of(new Row(table.id()), previous, next)), Instant.now())) {
        throw new IllegalStateException("lost a race nobody runs");
      }
      if (recordAudit) {
        audit.append(org.id(), Instant.now(), actor, UUID.randomUUID().toString(), List.of(
            AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.t")
                .with("previous_metadata_location", previous)
                .with("metadata_location", next)
                .with("updates", List.of("add-snapshot", "set-snapshot-ref"))));
      }
      return null;
    });
    long elapsed = System.nanoTime() - start;
    location = next;
    return elapsed;
  }

  private void prefill(long entries) {
    long start = System.nanoTime();
    database.dsl().execute("insert into audit_log (org_id, recorded_at, principal_id, "
        + "principal_name, action, target_kind, target_name, details, request_id) "
        + "select ?, now() - make_interval(secs => g), ?, 'bench', 'table.commit', 'table', "
        + "'ns.t' || (g % 1000), '{\"updates\": [\"add-snapshot\"]}', 'r' || g "
        + "from generate_series(1, ?) g", org.id(), actor.id(), entries);
    database.dsl().execute("analyze audit_log");
    System.out.printf("{\"what\":\"prefill\",\"entries\":%d,\"seconds\":%.1f}%n", entries,
        (System.nanoTime() - start) / 1e9);
  }

  private void measurePages(int rounds) throws Exception {
    // The database's side of a page, without the JDBC round trip and the JSON of the details.
    for (String filter : List.of("", " and target_name = 'ns.t7'")) {
      JsonNode explained = JSON.readTree(database.dsl().fetch("explain (analyze, format json) "
          + "select * from audit_log where org_id = ?" + filter + " order by id desc limit 101",
          org.id()).get(0).get(0).toString()).get(0);
      JsonNode scan = explained.path("Plan").path("Plans").get(0);
      System.out.printf("{\"what\":\"plan: newest page%s\",\"scan\":\"%s %s on %s\","
              + "\"execution_us\":%.0f}%n", filter.isEmpty() ? "" : ", one target",
          scan.path("Node Type").asText(), scan.path("Scan Direction").asText(),
          scan.path("Index Name").asText(), explained.path("Execution Time").asDouble() * 1e3);
    }
    long middle = ((Number) database.dsl().fetchValue("select max(id) / 2 from audit_log"))
        .longValue();
    Map<String, LongSupplier> pages = new LinkedHashMap<>();
    pages.put("page: newest 100", () -> query(Optional.empty(), Optional.empty(),
        OptionalLong.empty()));
    pages.put("page: 100 from the middle", () -> query(Optional.empty(), Optional.empty(),
        OptionalLong.of(middle)));
    pages.put("page: one target's newest 100", () -> query(Optional.empty(),
        Optional.of("ns.t7"), OptionalLong.empty()));
    pages.put("page: one principal's newest 100", () -> query(Optional.of(actor.id()),
        Optional.empty(), OptionalLong.empty()));
    // Round-robin, after a warm-up of each, so that all see the same machine and the same JIT.
    for (int i = 0; i < 200; i++) {
      pages.values().forEach(LongSupplier::getAsLong);
    }
    Map<String, long[]> times = new LinkedHashMap<>();
    pages.keySet().forEach(what -> times.put(what, new long[rounds]));
    for (int i = 0; i < rounds; i++) {
      for (Map.Entry<String, LongSupplier> page : pages.entrySet()) {
        times.get(page.getKey())[i] = page.getValue().getAsLong();
      }
    }
    times.forEach((what, nanos) -> report(what, "filled log", nanos));
  }

  private long query(Optional<UUID> principal, Optional<String> target, OptionalLong before) {
    long start = System.nanoTime();
    int size = audit.list(org.id(), new AuditQuery(principal, Optional.empty(), Optional.empty(),
        target, Optional.empty(), Optional.empty(), before, 100)).entries().size();
    if (size != 100) {
      throw new IllegalStateException("a page of " + size);
    }
    return System.nanoTime() - start;
  }

  private static void report(String what, String log, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf("{\"what\":\"%s\",\"log\":\"%s\",\"n\":%d,\"median_us\":%.0f,"
            + "\"p90_us\":%.0f,\"p99_us\":%.0f}%n", what, log, sorted.length,
        sorted[sorted.length / 2] / 1e3, sorted[sorted.length * 9 / 10] / 1e3,
        sorted[sorted.length * 99 / 100] / 1e3);
  }
}
