package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.query;
import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe grants ...}: read, write or manage on a namespace or one table of it. */
@Command(name = "grants", mixinStandardHelpOptions = true,
    description = "Grant, list and revoke access to namespaces and tables.",
    subcommands = {GrantsCommand.Create.class, GrantsCommand.ListGrants.class,
        GrantsCommand.Revoke.class})
public final class GrantsCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static void show(PrintWriter out, JsonNode grant) {
    out.printf("%s  %-6s %s%s  to %s (%s)%n", grant.path("id").asText(),
        grant.path("action").asText(), grant.path("namespace").asText(),
        grant.hasNonNull("table") ? "." + grant.path("table").asText() : "",
        grant.path("principal_name").asText(), grant.path("principal_id").asText());
  }

  @Command(name = "create", description = "Grant an action on a namespace or one of its tables.")
  static final class Create extends OrgSubcommand {
    @Parameters(index = "0", paramLabel = "PRINCIPAL_ID") String principal;

    @Parameters(index = "1", paramLabel = "ACTION", description = "read, write or manage")
    String action;

    @Parameters(index = "2", paramLabel = "NAMESPACE") String namespace;

    @Option(names = "--table", paramLabel = "TABLE", description = "Only this table or view.")
    String table;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("principal_id", principal);
      body.put("action", action);
      body.put("namespace", namespace);
      body.put("table", table);
      JsonNode grant = api.client().post(orgPath() + "/grants", body);
      return print(grant, out -> show(out, grant));
    }
  }

  @Command(name = "list", description = "List grants you may see.")
  static final class ListGrants extends OrgSubcommand {
    @Option(names = "--namespace") String namespace;

    @Option(names = "--principal", paramLabel = "ID") String principal;

    @Override
    public Integer call() {
      List<String> filters = new ArrayList<>();
      if (namespace != null) {
        filters.add("namespace=" + query(namespace));
      }
      if (principal != null) {
        filters.add("principal_id=" + query(principal));
      }
      JsonNode grants = api.client().get(orgPath() + "/grants"
          + (filters.isEmpty() ? "" : "?" + String.join("&", filters)));
      return print(grants, out -> grants.forEach(grant -> show(out, grant)));
    }
  }

  @Command(name = "revoke", description = "Revoke a grant.")
  static final class Revoke extends OrgSubcommand {
    @Parameters(paramLabel = "GRANT_ID") String id;

    @Override
    public Integer call() {
      JsonNode none = api.client().delete(orgPath() + "/grants/" + segment(id));
      return print(none, out -> out.println("revoked " + id));
    }
  }
}
