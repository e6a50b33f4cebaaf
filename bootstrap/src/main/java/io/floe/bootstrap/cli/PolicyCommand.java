package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.domain.TableIdentifierSyntax;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code floe tables policy NS.TABLE} and {@code floe namespaces policy NS}: shows the
 * maintenance policy that applies and where each value comes from; with settings, replaces the
 * level's own policy by them; with {@code --delete}, removes it.
 */
abstract class PolicyCommand extends OrgSubcommand {
  @Option(names = "--snapshot-max-age", paramLabel = "DURATION", converter = Durations.class,
      description = "Expire snapshots older than this, e.g. 5d.")
  Duration snapshotMaxAge;

  @Option(names = "--min-snapshots", paramLabel = "N",
      description = "Keep at least the last N snapshots when expiring.")
  Integer minSnapshots;

  @Option(names = "--orphan-grace", paramLabel = "DURATION", converter = Durations.class,
      description = "Remove unreferenced files older than this, e.g. 3d.")
  Duration orphanGrace;

  @Option(names = "--manifest-rewrite-threshold", paramLabel = "N",
      description = "Rewrite manifests when a snapshot has more than N data manifests.")
  Integer manifestThreshold;

  @Option(names = "--compaction-target-file-size-bytes", paramLabel = "BYTES",
      description = "Compact data files smaller than this into files of this size.")
  Long compactionTarget;

  @Option(names = "--compaction-min-input-files", paramLabel = "N",
      description = "Compact a partition only with at least N small files.")
  Integer compactionMinFiles;

  @Option(names = "--executor", paramLabel = "EXECUTOR",
      description = "What runs the steps: in-process (the server itself, the default) or spark "
          + "(a Spark job the server submits).")
  String executor;

  @Option(names = "--delete", description = "Remove this level's own policy.")
  boolean delete;

  /** The policy's path under the API. */
  abstract String path();

  @Override
  public Integer call() {
    Map<String, Object> body = new LinkedHashMap<>();
    putIfSet(body, "snapshot_max_age_seconds",
        snapshotMaxAge == null ? null : snapshotMaxAge.toSeconds());
    putIfSet(body, "min_snapshots_to_keep", minSnapshots);
    putIfSet(body, "orphan_grace_seconds", orphanGrace == null ? null : orphanGrace.toSeconds());
    putIfSet(body, "manifest_rewrite_threshold", manifestThreshold);
    putIfSet(body, "compaction_target_file_size_bytes", compactionTarget);
    putIfSet(body, "compaction_min_input_files", compactionMinFiles);
    putIfSet(body, "executor", executor);
    if (delete) {
      api.client().delete(path());
      out().println("Deleted the maintenance policy.");
      return 0;
    }
    JsonNode view = body.isEmpty() ? api.client().get(path()) : api.client().put(path(), body);
    return print(view, out -> report(out, view));
  }

  private static void putIfSet(Map<String, Object> body, String field, Object value) {
    if (value != null) {
      body.put(field, value);
    }
  }

  private static void report(PrintWriter out, JsonNode view) {
    out.printf("maintenance policy of %s %s%n", view.path("scope").asText(),
        view.path("target").asText());
    JsonNode effective = view.path("effective");
    JsonNode sources = view.path("sources");
    boolean any = false;
    for (Iterator<Map.Entry<String, JsonNode>> fields = effective.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (!field.getValue().isNull()) {
        any = true;
        out.printf("  %-36s %-14s (from the %s)%n", field.getKey(), field.getValue().asText(),
            sources.path(field.getKey()).asText());
      }
    }
    if (!any) {
      out.println("  nothing set: no maintenance step runs by policy");
    }
  }

  @Command(name = "policy", description = {"Show, set or delete a table's maintenance policy.",
      "Without settings shows the policy that applies and where each value comes from."})
  static final class OfTable extends PolicyCommand {
    @Parameters(paramLabel = "IDENTIFIER")
    String identifier;

    @Override
    String path() {
      TableIdentifierSyntax parsed = TableIdentifierSyntax.parse(identifier);
      return orgPath() + "/iceberg/namespaces/" + segment(parsed.namespace()) + "/tables/"
          + segment(parsed.table()) + "/maintenance-policy";
    }
  }

  @Command(name = "policy", description = {"Show, set or delete a namespace's maintenance "
      + "policy.", "Without settings shows the policy that applies and where each value comes "
      + "from."})
  static final class OfNamespace extends PolicyCommand {
    @Parameters(paramLabel = "NAMESPACE")
    String namespace;

    @Override
    String path() {
      return orgPath() + "/iceberg/namespaces/" + segment(namespace) + "/maintenance-policy";
    }
  }
}
