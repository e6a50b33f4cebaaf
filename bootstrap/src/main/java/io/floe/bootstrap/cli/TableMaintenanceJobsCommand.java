package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.domain.TableIdentifierSyntax;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code floe tables maintenance-jobs NAMESPACE.TABLE}: the jobs the server's maintenance
 * scheduler planned for a table, newest first, with how each went.
 */
@Command(name = "maintenance-jobs", description = {"List the maintenance scheduler's jobs of a "
    + "table, newest first: steps, why, state, outcome, and a failed attempt's error.",
    "IDENTIFIER is NAMESPACE.TABLE; double-quote components with dots, \"\" for a quote."})
final class TableMaintenanceJobsCommand extends OrgSubcommand {
  @Parameters(paramLabel = "IDENTIFIER")
  String identifier;

  @Option(names = "--limit", defaultValue = "20", description = "At most N jobs, 1 to 500 "
      + "(default: ${DEFAULT-VALUE}).", paramLabel = "N")
  int limit;

  @Override
  public Integer call() {
    TableIdentifierSyntax parsed = TableIdentifierSyntax.parse(identifier);
    JsonNode listed = api.client().get(orgPath() + "/iceberg/namespaces/"
        + segment(parsed.namespace()) + "/tables/" + segment(parsed.table())
        + "/maintenance/jobs?limit=" + limit);
    return print(listed, out -> listed.path("jobs").forEach(job -> line(out, job)));
  }

  private static void line(PrintWriter out, JsonNode job) {
    out.printf("#%d  %-9s  %s  created %s%n", job.path("id").asLong(),
        job.path("state").asText(), String.join(",", steps(job)), job.path("created_at").asText());
    out.println("  why: " + job.path("reason").asText());
    if (job.hasNonNull("outcome")) {
      out.println("  outcome: " + job.path("outcome").asText());
    }
    if (job.hasNonNull("last_error")) {
      out.printf("  attempt %d failed: %s%n", job.path("attempts").asInt(),
          job.path("last_error").asText());
      if (job.path("state").asText().equals("pending")) {
        out.println("  next attempt at " + job.path("due_at").asText());
      }
    }
    if (job.path("state").asText().equals("running")) {
      out.printf("  running on %s, lease until %s%n", job.path("replica").asText(),
          job.path("lease_expires_at").asText());
    }
  }

  private static List<String> steps(JsonNode job) {
    List<String> steps = new ArrayList<>();
    job.path("steps").forEach(step -> steps.add(step.asText()));
    return steps;
  }
}
