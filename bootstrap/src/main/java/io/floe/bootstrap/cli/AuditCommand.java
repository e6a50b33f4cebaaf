package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code floe audit}: who changed what in the org, newest first (admins only). */
@Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Show the org's audit log, newest first: every change to orgs,",
        "buckets, namespaces, repos, members, teams, grants, tokens, tables and",
        "views, who made it, when, and the id of the request (the X-Request-Id it",
        "was answered with). Admins only."})
public final class AuditCommand extends OrgSubcommand {
  @Option(names = "--principal", paramLabel = "ID", description = "Only this principal's changes.")
  String principal;

  @Option(names = "--action", paramLabel = "ACTION",
      description = "Only this action, e.g. table.commit, grant.create, token.issue.")
  String action;

  @Option(names = "--target-kind", paramLabel = "KIND",
      description = "Only changes to this kind of thing: org, bucket, namespace, table, view, "
          + "repo or principal.")
  String targetKind;

  @Option(names = "--target", paramLabel = "NAME",
      description = "Only changes to the thing of this exact name (a table: NAMESPACE.TABLE).")
  String target;

  @Option(names = "--since", paramLabel = "TIME",
      description = "Only changes at or after TIME: ISO-8601 (2026-01-31T12:00:00Z) or a "
          + "duration ago (24h, 7d).")
  String since;

  @Option(names = "--until", paramLabel = "TIME",
      description = "Only changes before TIME: ISO-8601 or a duration ago.")
  String until;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
      description = "Entries per page, 1 to 1000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--page-token", paramLabel = "TOKEN",
      description = "Continue where a page ended (its next_page_token).")
  String pageToken;

  @Option(names = "--all", description = "Follow every page to the end of the log.")
  boolean all;

  @Override
  public Integer call() {
    JsonNode first = api.client().get(orgPath() + "/audit" + queryString(pageToken));
    if (!all) {
      return print(first, out -> {
        first.path("entries").forEach(entry -> show(out, entry));
        if (first.hasNonNull("next_page_token")) {
          out.printf("(more: --page-token %s, or --all)%n",
              first.path("next_page_token").asText());
        }
      });
    }
    JsonNode page = first;
    ArrayNode entries = JsonNodeFactory.instance.arrayNode();
    entries.addAll((ArrayNode) page.path("entries"));
    while (page.hasNonNull("next_page_token")) {
      page = api.client().get(orgPath() + "/audit"
          + queryString(page.path("next_page_token").asText()));
      entries.addAll((ArrayNode) page.path("entries"));
    }
    ObjectNode whole = JsonNodeFactory.instance.objectNode();
    whole.set("entries", entries);
    return print(whole, out -> entries.forEach(entry -> show(out, entry)));
  }

  private String queryString(String token) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("principal", principal);
    params.put("action", action);
    params.put("target_kind", targetKind);
    params.put("target", target);
    params.put("since", since == null ? null : instant(since, "--since"));
    params.put("until", until == null ? null : instant(until, "--until"));
    params.put("limit", Integer.toString(limit));
    params.put("page_token", token);
    return params.entrySet().stream().filter(param -> param.getValue() != null)
        .map(param -> param.getKey() + "=" + query(param.getValue()))
        .collect(Collectors.joining("&", "?", ""));
  }

  /** An ISO-8601 time as given, or a duration before now. */
  private String instant(String value, String option) {
    try {
      return Instant.parse(value).toString();
    } catch (DateTimeParseException notAnInstant) {
      try {
        return Instant.now().minus(new Durations().convert(value)).toString();
      } catch (RuntimeException notADuration) {
        throw new IllegalArgumentException(option + " must be an ISO-8601 time "
            + "(2026-01-31T12:00:00Z) or a duration ago (24h), got '" + value + "'");
      }
    }
  }

  static void show(PrintWriter out, JsonNode entry) {
    JsonNode details = entry.path("details");
    out.printf("%s  %-18s %-24s %-9s %s%s  request %s%n", entry.path("recorded_at").asText(),
        entry.path("principal_name").asText(), entry.path("action").asText(),
        entry.path("target_kind").asText(), entry.path("target_name").asText(),
        details.isEmpty() ? "" : "  " + details, entry.path("request_id").asText());
  }
}
