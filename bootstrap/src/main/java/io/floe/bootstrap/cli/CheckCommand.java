package io.floe.bootstrap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code floe check}: a read-only check of the org's catalog against its buckets, page after page
 * to the end. Exits 1 when it found anything, so that monitoring can run it as it is; 2 when it
 * could not check (a usage error, or the server could not be asked), as picocli does for usage.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Check the org's catalog against its buckets without changing anything:",
        "tables and views (those of repo branches too) whose current metadata",
        "file is missing or unreadable,",
        "objects under prefixes no namespace, table or repo claims, and deleted",
        "namespaces and repos past their recovery period that were never cleaned up.",
        "Exits 0 when all is well, 1 when something was found, 2 when the check",
        "could not run. Admins only."})
public final class CheckCommand extends OrgSubcommand {
  /** What the command exits with when the check found something. */
  static final int FOUND = 1;
  /** What it exits with when it could not check, like picocli on a usage error. */
  static final int COULD_NOT_CHECK = 2;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "200",
      description = "Things looked at per request, 1 to 1000 (default: ${DEFAULT-VALUE}): "
          + "each request stays short however large the catalog.")
  int limit;

  @Option(names = "--page-token", paramLabel = "TOKEN",
      description = "Resume a check where a page ended (its next_page_token).")
  String pageToken;

  @Override
  public Integer call() {
    ArrayNode findings = JsonNodeFactory.instance.arrayNode();
    long checked = 0;
    String token = pageToken;
    try {
      do {
        JsonNode page = api.client().get(orgPath() + "/check?limit=" + limit
            + (token == null ? "" : "&page_token=" + ApiClient.query(token)));
        findings.addAll((ArrayNode) page.path("findings"));
        checked += page.path("checked").asLong();
        token = page.hasNonNull("next_page_token") ? page.path("next_page_token").asText() : null;
      } while (token != null);
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("floe: error: " + e.getMessage());
      return COULD_NOT_CHECK;
    }
    ObjectNode report = JsonNodeFactory.instance.objectNode();
    report.put("clean", findings.isEmpty());
    report.put("checked", checked);
    report.set("findings", findings);
    long looked = checked;
    print(report, out -> {
      findings.forEach(finding -> out.printf("%-20s %s  %s%n", finding.path("kind").asText(),
          finding.path("subject").asText(), finding.path("detail").asText()));
      out.printf(findings.isEmpty() ? "clean: %d things checked%n"
          : "%2$d finding(s) in %1$d things checked%n", looked, findings.size());
    });
    return findings.isEmpty() ? 0 : FOUND;
  }
}
