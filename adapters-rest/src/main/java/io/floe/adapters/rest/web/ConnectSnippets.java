package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.Snippet;
import io.floe.adapters.rest.web.view.Snippet.FirstQuery;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Connect tab's configuration for each engine, as "Connect your engine" (docs/engines.md)
 * writes it (the browser test holds the two to each other), filled in with this server's catalog URI and
 * the org as warehouse, and with a first query on the namespace or table at hand. The token stays
 * a placeholder: a page never shows a secret.
 */
final class ConnectSnippets {
  static final String TOKEN = "ema_...";
  private static final Pattern PLAIN_SQL = Pattern.compile("[a-z_][a-z0-9_]*");
  private static final String SPARK_RUNTIME =
      "org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.11.0";

  private ConnectSnippets() {}

  static List<Snippet> of(String catalogUri, String warehouse, String namespace,
      Optional<String> table) {
    return List.of(
        new Snippet("PyIceberg", "python", "connect-pyiceberg",
            pyIceberg(catalogUri, warehouse, namespace, table), Optional.empty()),
        new Snippet("DuckDB", "sql", "connect-duckdb",
            duckDb(catalogUri, warehouse, namespace, table), Optional.empty()),
        new Snippet("Spark", "sh", "connect-spark", spark(catalogUri, warehouse),
            Optional.of(new FirstQuery("spark-sql", "sql", sparkQuery(namespace, table)))),
        new Snippet("Trino", "properties", "connect-trino", trino(catalogUri, warehouse),
            Optional.of(new FirstQuery("Trino", "sql", trinoQuery(namespace, table)))));
  }

  private static String pyIceberg(String uri, String warehouse, String namespace,
      Optional<String> table) {
    String use = table.map(name -> "table = catalog.load_table((" + python(namespace) + ", "
            + python(name) + "))\nframe = table.scan().to_pandas()")
        .orElse("catalog.list_tables(" + python(namespace) + ")");
    return "from pyiceberg.catalog.rest import RestCatalog\n\n"
        + "catalog = RestCatalog(\"floe\", uri=" + python(uri) + ", warehouse="
        + python(warehouse) + ",\n                      token=\"" + TOKEN + "\")\n" + use + "\n";
  }

  private static String duckDb(String uri, String warehouse, String namespace,
      Optional<String> table) {
    String use = table.map(name -> "SELECT * FROM floe." + sql(namespace, '"') + "." + sql(name,
            '"') + " LIMIT 10;")
        .orElse("SHOW ALL TABLES;");
    return "LOAD httpfs; LOAD avro; LOAD iceberg;\n"
        + "CREATE SECRET floe_token (TYPE ICEBERG, TOKEN '" + TOKEN + "');\n"
        + "ATTACH " + sqlText(warehouse) + " AS floe (TYPE ICEBERG, ENDPOINT " + sqlText(uri)
        + ", SECRET floe_token);\n" + use + "\n";
  }

  private static String sparkQuery(String namespace, Optional<String> table) {
    return table.map(name -> "SELECT * FROM floe." + sql(namespace, '`') + "."
            + sql(name, '`') + " LIMIT 10;")
        .orElse("SHOW TABLES IN floe." + sql(namespace, '`') + ";");
  }

  private static String spark(String uri, String warehouse) {
    return "spark-sql --packages " + SPARK_RUNTIME + " \\\n"
        + "  --conf spark.sql.extensions=org.apache.iceberg.spark.extensions"
        + ".IcebergSparkSessionExtensions \\\n"
        + "  --conf spark.sql.catalog.floe=org.apache.iceberg.spark.SparkCatalog \\\n"
        + "  --conf spark.sql.catalog.floe.type=rest \\\n"
        + "  --conf spark.sql.catalog.floe.uri=" + uri + " \\\n"
        + "  --conf spark.sql.catalog.floe.warehouse=" + warehouse + " \\\n"
        + "  --conf spark.sql.catalog.floe.token=" + TOKEN + "\n";
  }

  private static String trinoQuery(String namespace, Optional<String> table) {
    return table.map(name -> "SELECT * FROM floe." + sql(namespace, '"') + "."
            + sql(name, '"') + " LIMIT 10;")
        .orElse("SHOW TABLES FROM floe." + sql(namespace, '"') + ";");
  }

  /**
   * Trino's catalog file, whole: the AWS SDK needs a region even for files on the server's disk,
   * and the local file system serves the default bucket's {@code file://} locations.
   */
  private static String trino(String uri, String warehouse) {
    return "# etc/catalog/floe.properties\n"
        + "connector.name=iceberg\n"
        + "iceberg.catalog.type=rest\n"
        + "iceberg.rest-catalog.uri=" + uri + "\n"
        + "iceberg.rest-catalog.warehouse=" + warehouse + "\n"
        + "iceberg.rest-catalog.security=OAUTH2\n"
        + "iceberg.rest-catalog.oauth2.token=" + TOKEN + "\n"
        + "iceberg.rest-catalog.vended-credentials-enabled=true\n"
        + "fs.native-s3.enabled=true\n"
        + "s3.region=us-east-1\n"
        + "fs.native-local.enabled=true\n"
        + "local.location=/\n";
  }

  /** A Python string literal. */
  private static String python(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** A SQL identifier, quoted with {@code quote} unless it is plain. */
  private static String sql(String name, char quote) {
    String q = String.valueOf(quote);
    return PLAIN_SQL.matcher(name).matches() ? name : q + name.replace(q, q + q) + q;
  }

  /** A SQL string literal. */
  private static String sqlText(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
