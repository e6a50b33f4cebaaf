package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.domain.TableIdentifierSyntax;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code floe tables maintain NAMESPACE.TABLE}: runs maintenance steps on a table now, on the
 * server: each flag names one step; {@code --dry-run} reports what would happen.
 */
@Command(name = "maintain", description = {"Maintain a table now: compact small data files, "
    + "expire old snapshots, rewrite manifests, remove orphan files.",
    "IDENTIFIER is NAMESPACE.TABLE; double-quote components with dots, \"\" for a quote."})
final class TableMaintainCommand extends OrgSubcommand {
  @Parameters(paramLabel = "IDENTIFIER")
  String identifier;

  @Option(names = "--compact", description = "Bin-pack data files smaller than the target size.")
  boolean compact;

  @Option(names = "--target-file-size-bytes", paramLabel = "BYTES",
      description = "Target size of compacted files (default: 512 MiB).")
  Long targetFileSize;

  @Option(names = "--min-input-files", paramLabel = "N",
      description = "Compact a partition only with at least N small files (default: 2).")
  Integer minInputFiles;

  @Option(names = "--expire-older-than", paramLabel = "DURATION", converter = Durations.class,
      description = "Expire snapshots older than this, e.g. 5d, 12h (see --retain-last).")
  Duration expireOlderThan;

  @Option(names = "--retain-last", paramLabel = "N",
      description = "When expiring, keep at least the last N snapshots (default: 1).")
  Integer retainLast;

  @Option(names = "--rewrite-manifests", description = "Rewrite the current snapshot's manifests.")
  boolean rewriteManifests;

  @Option(names = "--remove-orphans-older-than", paramLabel = "DURATION",
      converter = Durations.class, description = "Remove files under the table that no metadata "
          + "references and were written more than DURATION ago, e.g. 3d.")
  Duration removeOrphansOlderThan;

  @Option(names = "--dry-run", description = "Report what would happen; change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    TableIdentifierSyntax parsed = TableIdentifierSyntax.parse(identifier);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("dry_run", dryRun);
    if (compact) {
      Map<String, Object> settings = new LinkedHashMap<>();
      if (targetFileSize != null) {
        settings.put("target_file_size_bytes", targetFileSize);
      }
      if (minInputFiles != null) {
        settings.put("min_input_files", minInputFiles);
      }
      body.put("compact", settings);
    }
    if (expireOlderThan != null || retainLast != null) {
      Map<String, Object> settings = new LinkedHashMap<>();
      settings.put("older_than_seconds",
          expireOlderThan == null ? 0 : expireOlderThan.toSeconds());
      settings.put("retain_last", retainLast == null ? 1 : retainLast);
      body.put("expire_snapshots", settings);
    }
    if (rewriteManifests) {
      body.put("rewrite_manifests", true);
    }
    if (removeOrphansOlderThan != null) {
      body.put("remove_orphans", Map.of("older_than_seconds",
          removeOrphansOlderThan.toSeconds()));
    }
    JsonNode report = api.client().post(orgPath() + "/iceberg/namespaces/"
        + segment(parsed.namespace()) + "/tables/" + segment(parsed.table()) + "/maintenance",
        body);
    return print(report, out -> report(out, report));
  }

  private static void report(PrintWriter out, JsonNode report) {
    String verb = report.path("dry_run").asBoolean() ? "would " : "";
    JsonNode compaction = report.path("compaction");
    if (!compaction.isMissingNode() && !compaction.isNull()) {
      out.printf("compact: %s, %s rewrite %d files (%d bytes) in %d partitions into %d files%n",
          compaction.path("outcome").asText(), verb.isEmpty() ? "did" : verb.trim(),
          compaction.path("input_files").asInt(), compaction.path("input_bytes").asLong(),
          compaction.path("groups").asInt(), compaction.path("output_files").asInt());
      if (compaction.path("skipped_with_deletes").asInt() > 0) {
        out.printf("  skipped %d files with deletes%n",
            compaction.path("skipped_with_deletes").asInt());
      }
      if (compaction.hasNonNull("detail")) {
        out.println("  " + compaction.path("detail").asText());
      }
    }
    JsonNode expiry = report.path("expiry");
    if (!expiry.isMissingNode() && !expiry.isNull()) {
      out.printf("expire: %s, %sexpire %d snapshots older than %s, %d remain%n",
          expiry.path("outcome").asText(), verb, expiry.path("expired_snapshot_ids").size(),
          expiry.path("older_than").asText(), expiry.path("remaining_snapshots").asInt());
      for (JsonNode refused : expiry.path("refused_files")) {
        out.println("  not deleted, outside the table: " + refused.asText());
      }
    }
    JsonNode manifests = report.path("manifests");
    if (!manifests.isMissingNode() && !manifests.isNull()) {
      out.printf("rewrite manifests: %s, %d manifests before, %d after%n",
          manifests.path("outcome").asText(), manifests.path("manifests_before").asInt(),
          manifests.path("manifests_after").asInt());
    }
    JsonNode orphans = report.path("orphans");
    if (!orphans.isMissingNode() && !orphans.isNull()) {
      for (JsonNode file : orphans.path("files")) {
        out.printf("  %12d  %s%n", file.path("size_bytes").asLong(), file.path("key").asText());
      }
      out.printf("remove orphans: %s, %sdelete %d files (%d bytes) unreferenced since before %s;"
          + " spared %d younger%n", orphans.path("outcome").asText(), verb,
          orphans.path("files").size(), orphans.path("total_bytes").asLong(),
          orphans.path("older_than").asText(), orphans.path("spared_young").asInt());
    }
  }
}
