import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Iceberg's Java client's side of bench/scan_planning.py, run from source on Floe's jar's
 * classpath (which holds iceberg-core, iceberg-aws and iceberg-data):
 *
 * <pre>java -cp floe.jar bench/PlanScan.java URI WAREHOUSE TOKEN client|server TABLE none|part=N
 *   ROUNDS PROXY_CONTROL_URL</pre>
 *
 * <p>Each round builds a fresh catalog, zeroes the proxy's counts, times loadTable and planFiles
 * to the last task, reads the proxy's counts, then (with a filter) times a fresh load, plan and
 * read of every row. Prints one JSON object a round.
 */
public class PlanScan {
  public static void main(String[] args) throws Exception {
    String uri = args[0], warehouse = args[1], token = args[2], mode = args[3], name = args[4];
    String filter = args[5];
    int rounds = Integer.parseInt(args[6]);
    String control = args[7];
    HttpClient http = HttpClient.newHttpClient();
    for (int round = 0; round < rounds; round++) {
      http.send(HttpRequest.newBuilder(URI.create(control + "/reset"))
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      long started = System.nanoTime();
      int tasks = 0;
      double load;
      try (RESTCatalog catalog = catalog(uri, warehouse, token, mode)) {
        Table table = catalog.loadTable(TableIdentifier.of("plan", name));
        load = (System.nanoTime() - started) / 1e9;
        TableScan scan = table.newScan();
        if (!filter.equals("none")) {
          scan = scan.filter(Expressions.equal("part", Integer.parseInt(filter.split("=")[1])));
        }
        try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
          for (FileScanTask ignored : planned) {
            tasks++;
          }
        }
      }
      double loadPlan = (System.nanoTime() - started) / 1e9;
      String stats = http.send(HttpRequest.newBuilder(URI.create(control + "/stats")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      String read = "";
      if (!filter.equals("none")) {
        started = System.nanoTime();
        long rows = 0;
        try (RESTCatalog catalog = catalog(uri, warehouse, token, mode)) {
          Table table = catalog.loadTable(TableIdentifier.of("plan", name));
          try (CloseableIterable<Record> records = IcebergGenerics.read(table)
              .where(Expressions.equal("part", Integer.parseInt(filter.split("=")[1]))).build()) {
            for (Record ignored : records) {
              rows++;
            }
          }
        }
        read = ", \"rows\": " + rows + ", \"end_to_end_s\": " + (System.nanoTime() - started) / 1e9;
      }
      System.out.println("{\"load_s\": " + load + ", \"load_plan_s\": " + loadPlan
          + ", \"plan_s\": " + (loadPlan - load) + ", \"tasks\": " + tasks + read
          + ", \"stats\": " + stats + "}");
    }
  }

  static RESTCatalog catalog(String uri, String warehouse, String token, String mode) {
    Map<String, String> properties = new HashMap<>();
    properties.put("uri", uri);
    properties.put("warehouse", warehouse);
    properties.put("token", token);
    properties.put("rest.auth.type", "oauth2");
    properties.put("oauth2-server-uri", uri + "/v1/oauth/tokens");
    properties.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    properties.put("client.region", "us-east-1");
    if (mode.equals("server")) {
      properties.put("scan-planning-mode", "server");
    }
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("bench", properties);
    return catalog;
  }
}
