package io.floe.bootstrap;

import java.util.List;
import java.util.Map;

/**
 * A valid body for each route that reads one, and for some routes bodies that are well formed but
 * ask for something impossible (an unknown id, an invalid uuid, a date past the year 9999). The
 * route fuzz test breaks the valid bodies field by field; a route that is not listed here is still
 * sent every malformed body of the generic corpus. Placeholders in {@code ${...}} name values of
 * the fixture the test builds for each route.
 */
final class RouteExamples {
  private static final String ICEBERG = "/iceberg/v1/{prefix}";
  private static final String NAMESPACE = ICEBERG + "/namespaces/{namespace}";
  private static final String TABLE = NAMESPACE + "/tables/{table}";
  private static final String VIEW = NAMESPACE + "/views/{view}";
  private static final String ORG = "/orgs/{org}";
  private static final String POLICY = "{\"snapshot_max_age_seconds\":432000,"
      + "\"min_snapshots_to_keep\":5,\"orphan_grace_seconds\":259200,"
      + "\"manifest_rewrite_threshold\":10,\"compaction_target_file_size_bytes\":1048576,"
      + "\"compaction_min_input_files\":2,\"executor\":\"in-process\"}";
  private static final String MAINTENANCE =
      ORG + "/iceberg/namespaces/{name}/tables/{table}/maintenance";

  private static final String SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
      + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
      + "{\"id\":2,\"name\":\"region\",\"required\":false,\"type\":\"string\"}]}";
  private static final String VIEW_VERSION = "{\"version-id\":1,\"timestamp-ms\":${now},"
      + "\"schema-id\":0,\"summary\":{\"engine-name\":\"spark\"},\"default-namespace\":[\"sales\"],"
      + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";

  private RouteExamples() {}

  /** The valid body of the route {@code method path}, or null when it takes none. */
  static String body(String method, String path) {
    return BODIES.get(method + " " + path);
  }

  /** The query string the route needs to do anything (with its {@code ?}), or empty. */
  static String query(String method, String path) {
    return QUERIES.getOrDefault(method + " " + path, "");
  }

  private static final Map<String, String> QUERIES = Map.of(
      "GET /iceberg/v1/config", "?warehouse=${org}",
      "GET " + MAINTENANCE + "/jobs", "?limit=10",
      "GET /orgs/{org}/check", "?limit=5");

  /** Well-formed bodies that the route must refuse, without changing anything. */
  static List<String> impossible(String method, String path) {
    return IMPOSSIBLE.getOrDefault(method + " " + path, List.of());
  }

  private static final Map<String, String> BODIES = Map.ofEntries(
      Map.entry("POST " + ICEBERG + "/namespaces",
          "{\"namespace\":[\"fuzzed\"],\"properties\":{\"owner\":\"ada\"}}"),
      Map.entry("POST " + NAMESPACE + "/properties",
          "{\"removals\":[\"gone\"],\"updates\":{\"owner\":\"grace\"}}"),
      Map.entry("POST " + NAMESPACE + "/tables", createTable("fuzzed")),
      Map.entry("POST " + TABLE, commit("{\"action\":\"set-properties\","
          + "\"updates\":{\"owner\":\"grace\"}}")),
      Map.entry("POST " + TABLE + "/sign", "{\"region\":\"us-east-1\",\"method\":\"GET\","
          + "\"uri\":\"https://bucket.s3.us-east-1.amazonaws.com/key\","
          + "\"headers\":{\"host\":[\"bucket.s3.us-east-1.amazonaws.com\"]},\"properties\":{}}"),
      Map.entry("POST " + TABLE + "/metrics", "{\"report-type\":\"scan-report\","
          + "\"table-name\":\"sales.orders\",\"snapshot-id\":1,\"filter\":true,\"schema-id\":0,"
          + "\"projected-field-ids\":[1],\"projected-field-names\":[\"id\"],\"metrics\":{}}"),
      Map.entry("POST " + TABLE + "/plan", "{\"select\":[\"id\"],\"filter\":{\"type\":\"eq\","
          + "\"term\":\"region\",\"value\":\"eu\"},\"case-sensitive\":true,"
          + "\"use-snapshot-schema\":false,\"stats-fields\":[\"id\"]}"),
      Map.entry("POST " + TABLE + "/tasks", "{\"plan-task\":\"AQGlanRhc2s\"}"),
      Map.entry("POST " + NAMESPACE + "/register",
          "{\"name\":\"fuzzed\",\"metadata-location\":\"${ordersMetadata}\"}"),
      Map.entry("POST " + ICEBERG + "/tables/rename", rename("orders")),
      Map.entry("POST " + ICEBERG + "/events", "{\"page-size\":10,\"after-timestamp-ms\":0,"
          + "\"operation-types\":[\"update-table\",\"create-namespace\"],"
          + "\"catalog-objects-by-name\":[[\"sales\"],[\"sales\",\"orders\"]],"
          + "\"object-types\":[\"table\",\"namespace\"]}"),
      Map.entry("POST " + ICEBERG + "/transactions/commit", "{\"table-changes\":[{"
          + "\"identifier\":{\"namespace\":[\"sales\"],\"name\":\"orders\"},\"requirements\":"
          + "[{\"type\":\"assert-table-uuid\",\"uuid\":\"${ordersUuid}\"}],\"updates\":[{"
          + "\"action\":\"set-properties\",\"updates\":{\"owner\":\"grace\"}}]}]}"),
      Map.entry("POST " + NAMESPACE + "/views", createView("fuzzed")),
      Map.entry("POST " + VIEW, commit("{\"action\":\"set-properties\","
          + "\"updates\":{\"owner\":\"grace\"}}")),
      Map.entry("POST " + NAMESPACE + "/register-view",
          "{\"name\":\"fuzzed\",\"metadata-location\":\"${viewMetadata}\"}"),
      Map.entry("POST " + ICEBERG + "/views/rename", rename("recent")),

      Map.entry("POST /orgs", "{\"name\":\"fuzzed-${n}\",\"iceberg_enabled\":true}"),
      Map.entry("PATCH " + ORG, "{\"iceberg_enabled\":true}"),
      Map.entry("POST " + ORG + "/iceberg/namespaces", "{\"name\":\"fuzzed\","
          + "\"bucket_nickname\":\"default\",\"description\":\"raw data\",\"metadata\":{"
          + "\"source\":\"stations\",\"level\":3,\"tags\":[\"a\",1,true]},\"properties\":{"
          + "\"owner\":\"ada\"},\"visibility\":\"PRIVATE\"}"),
      Map.entry("PATCH " + ORG + "/iceberg/namespaces/{name}", "{\"description\":\"clean\","
          + "\"add_metadata\":{\"level\":4},\"update_metadata\":{\"source\":\"radar\"},"
          + "\"remove_metadata\":[\"tags\"],\"visibility\":\"AUTHENTICATED_PUBLIC\"}"),
      Map.entry("POST " + ORG + "/buckets", "{\"nickname\":\"fuzzed\",\"platform\":\"s3\","
          + "\"name\":\"fuzz-bucket\",\"prefix\":\"data\",\"endpoint\":\"http://127.0.0.1:9\","
          + "\"region\":\"us-east-1\",\"path_style\":true,\"auth\":{\"method\":\"static\","
          + "\"access_key_id\":\"AKIA\",\"secret_access_key\":\"secret\"},\"is_default\":false}"),
      Map.entry("PATCH " + ORG + "/buckets/{bucket}", "{\"region\":\"eu-west-1\","
          + "\"endpoint\":null,\"path_style\":false,\"auth\":{\"method\":\"none\"}}"),
      Map.entry("POST " + ORG + "/users", "{\"name\":\"Grace\",\"role\":\"member\","
          + "\"external_id\":\"grace@example.com\"}"),
      Map.entry("POST " + ORG + "/api-clients", "{\"name\":\"etl\",\"role\":\"member\"}"),
      Map.entry("POST " + ORG + "/teams", "{\"name\":\"analysts\"}"),
      Map.entry("PATCH " + ORG + "/members/{id}", "{\"role\":\"admin\"}"),
      Map.entry("POST " + ORG + "/teams/{id}/members", "{\"principal_id\":\"${ada}\"}"),
      Map.entry("POST " + ORG + "/tokens", "{\"principal_id\":\"${ada}\","
          + "\"expires_in_seconds\":3600,\"description\":\"laptop\"}"),
      Map.entry("POST " + ORG + "/grants", "{\"principal_id\":\"${ada}\",\"namespace\":\"sales\","
          + "\"table\":\"orders\",\"action\":\"write\"}"),
      Map.entry("POST " + ORG + "/repos", "{\"name\":\"fuzzed\",\"bucket_nickname\":\"default\","
          + "\"description\":\"fields\"}"),
      Map.entry("POST " + ORG + "/repos/{repo}/gc", "{\"dry_run\":true,\"grace_seconds\":3600}"),
      Map.entry("POST " + MAINTENANCE, "{\"dry_run\":true,\"compact\":{"
          + "\"target_file_size_bytes\":1048576,\"min_input_files\":2},\"expire_snapshots\":{"
          + "\"older_than_seconds\":3600,\"retain_last\":1},\"rewrite_manifests\":true,"
          + "\"remove_orphans\":{\"older_than_seconds\":259200}}"),
      // A Kafka target, whose object has the more fields (a URL target is the fixture's own).
      Map.entry("POST " + ORG + "/subscriptions", "{\"kafka\":{\"bootstrap_servers\":"
          + "\"127.0.0.1:9\",\"topic\":\"floe-events\",\"tls\":false,\"username\":\"floe\","
          + "\"password\":\"secret\"},\"namespace\":\"sales\",\"table\":\"orders\","
          + "\"operations\":[\"table.commit\",\"table.create\"]}"),
      Map.entry("PUT " + ORG + "/maintenance-policy", POLICY),
      Map.entry("PUT " + ORG + "/iceberg/namespaces/{name}/maintenance-policy", POLICY),
      Map.entry("PUT " + ORG + "/iceberg/namespaces/{name}/tables/{table}/maintenance-policy",
          POLICY));

  /**
   * A column of 850 lists around a 14-deep tree of maps, 1.7 MB as a createTable: iceberg-core
   * would index its field names in gigabytes. Every way a schema comes in must refuse it.
   */
  private static final String DEEP = HostileSchemas.listsAroundMaps(850, 14);
  private static final String ADD_DEEP_SCHEMA = commit("{\"action\":\"add-schema\",\"schema\":"
      + DEEP + "}");

  private static final Map<String, List<String>> IMPOSSIBLE = Map.ofEntries(
      Map.entry("POST " + NAMESPACE + "/tables", List.of(
          HostileSchemas.createTable("deep", DEEP),
          createTable("deep").replace(SCHEMA, DEEP).replace("\"stage-create\":false",
              "\"stage-create\":true"))),
      Map.entry("POST " + NAMESPACE + "/views", List.of(
          createView("deep").replace(SCHEMA, DEEP))),
      Map.entry("PUT " + ORG + "/iceberg/namespaces/{name}/tables/{table}/maintenance-policy",
          List.of("{\"min_snapshots_to_keep\":0}", "{\"compaction_min_input_files\":1}",
              "{\"manifest_rewrite_threshold\":9223372036854775807}",
              "{\"snapshot_max_age_seconds\":100000000000000000}", "{\"executor\":\"hadoop\"}",
              "{\"executor\":7}")),
      Map.entry("POST " + MAINTENANCE, List.of(
          "{\"remove_orphans\":{\"older_than_seconds\":100000000000000000}}",
          "{\"expire_snapshots\":{\"older_than_seconds\":0,\"retain_last\":0}}",
          "{\"compact\":{\"target_file_size_bytes\":1}}",
          "{\"compact\":{\"min_input_files\":9223372036854775807}}",
          "{\"compact\":[]}", "{\"rewrite_manifests\":\"yes\"}")),
      Map.entry("POST " + ORG + "/repos/{repo}/gc", List.of(
          "{\"dry_run\":false,\"grace_seconds\":100000000000000000}",
          "{\"dry_run\":true,\"grace_seconds\":9223372036854775807}")),
      Map.entry("POST " + TABLE, List.of(
          ADD_DEEP_SCHEMA,
          commit("{\"action\":\"set-default-spec\",\"spec-id\":99}"),
          commit("{\"action\":\"set-default-sort-order\",\"sort-order-id\":99}"),
          commit("{\"action\":\"set-current-schema\",\"schema-id\":99}"),
          commit("{\"action\":\"assign-uuid\",\"uuid\":\"not-a-uuid\"}"),
          commit("{\"action\":\"upgrade-format-version\",\"format-version\":99}"),
          commit("{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
              + "\"snapshot-id\":99}"),
          commit("{\"action\":\"remove-schemas\",\"schema-ids\":[0]}"),
          commit("{\"action\":\"add-partition-spec\",\"spec\":{\"fields\":[{\"name\":\"x\","
              + "\"transform\":\"identity\",\"source-id\":99}]}}"),
          commit("{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":5,\"fields\":[{"
              + "\"transform\":\"identity\",\"source-id\":99,\"direction\":\"asc\","
              + "\"null-order\":\"nulls-first\"}]}}"),
          "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":[]}",
          "{\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":"
              + "99}],\"updates\":[]}",
          "123", "[]", "\"x\"", "null")),
      Map.entry("POST " + VIEW, List.of(
          ADD_DEEP_SCHEMA,
          commit("{\"action\":\"set-current-view-version\",\"view-version-id\":99}"),
          commit("{\"action\":\"add-view-version\",\"view-version\":" + VIEW_VERSION
              .replace("\"schema-id\":0", "\"schema-id\":99") + "}"),
          "123", "[]", "\"x\"")),
      Map.entry("POST " + ICEBERG + "/transactions/commit", List.of(
          "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"sales\"],\"name\":\"orders\"},"
              + "\"requirements\":[],\"updates\":[{\"action\":\"add-schema\",\"schema\":" + DEEP
              + "}]}]}",
          "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"sales\"],\"name\":\"orders\"},"
              + "\"requirements\":[],\"updates\":[{\"action\":\"set-default-spec\","
              + "\"spec-id\":99}]}]}",
          "{\"table-changes\":[]}", "{\"table-changes\":123}")),
      Map.entry("POST " + ORG + "/subscriptions", List.of(
          "{\"url\":\"ftp://127.0.0.1:9/hook\"}",
          "{\"url\":\"http://does-not-exist.invalid/hook\"}",
          "{\"url\":\"http://127.0.0.1:9/hook\",\"table\":\"orders\"}",
          "{\"url\":\"http://127.0.0.1:9/hook\",\"operations\":[\"table.explode\"]}",
          "{\"kafka\":{\"bootstrap_servers\":\"127.0.0.1:9\",\"topic\":\"a b\"}}",
          "{\"kafka\":{\"bootstrap_servers\":\"127.0.0.1:99999\",\"topic\":\"t\"}}",
          "{\"kafka\":{\"bootstrap_servers\":[\"127.0.0.1:9\"],\"topic\":\"t\"}}",
          "{\"kafka\":{\"bootstrap_servers\":\"127.0.0.1:9\",\"topic\":\"t\","
              + "\"tls\":\"yes\"}}",
          "{\"kafka\":{\"bootstrap_servers\":\"127.0.0.1:9\",\"topic\":\"t\","
              + "\"username\":\"u\"}}",
          "{\"kafka\":\"127.0.0.1:9\"}",
          "{\"url\":\"http://127.0.0.1:9/hook\",\"kafka\":{\"bootstrap_servers\":"
              + "\"127.0.0.1:9\",\"topic\":\"t\"}}")),
      Map.entry("POST " + ORG + "/tokens", List.of(
          "{\"principal_id\":\"${ada}\",\"expires_at\":\"+999999999-12-31T23:59:59Z\"}",
          "{\"principal_id\":\"${ada}\",\"expires_at\":\"-999999999-01-01T00:00:00Z\"}",
          "{\"principal_id\":\"${ada}\",\"expires_at\":\"10000-01-01T00:00:00Z\"}",
          "{\"principal_id\":\"${ada}\",\"expires_in_seconds\":1e300}",
          "{\"principal_id\":\"00000000-0000-0000-0000-000000000000\"}")));

  /** A partitioned, sorted table of two columns. */
  static String createTable(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA
        + ",\"partition-spec\":{\"spec-id\":0,\"fields\":[{\"name\":\"region\","
        + "\"transform\":\"identity\",\"source-id\":2,\"field-id\":1000}]},"
        + "\"write-order\":{\"order-id\":1,\"fields\":[{\"transform\":\"identity\","
        + "\"source-id\":1,\"direction\":\"asc\",\"null-order\":\"nulls-first\"}]},"
        + "\"stage-create\":false,\"properties\":{\"owner\":\"ada\"}}";
  }

  /** A view of the table's columns; {@code ${now}} stands for its version's time. */
  static String createView(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA + ",\"view-version\":"
        + VIEW_VERSION + ",\"properties\":{\"owner\":\"ada\"}}";
  }

  private static String commit(String update) {
    return "{\"requirements\":[],\"updates\":[" + update + "]}";
  }

  private static String rename(String name) {
    return "{\"source\":{\"namespace\":[\"sales\"],\"name\":\"" + name + "\"},\"destination\":{"
        + "\"namespace\":[\"sales\"],\"name\":\"fuzzed\"}}";
  }
}
