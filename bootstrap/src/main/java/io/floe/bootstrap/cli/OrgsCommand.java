package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe orgs ...}: the orgs the token's principal belongs to. */
@Command(name = "orgs", mixinStandardHelpOptions = true,
    description = "Show the orgs you belong to.",
    subcommands = {OrgsCommand.ListOrgs.class, OrgsCommand.GetOrg.class})
public final class OrgsCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static void show(PrintWriter out, JsonNode org) {
    out.printf("%-30s %-6s iceberg: %-3s %s%n", org.path("name").asText(),
        org.path("role").asText(), org.path("iceberg_enabled").asBoolean() ? "on" : "off",
        org.path("id").asText());
  }

  @Command(name = "list", description = "List the orgs you belong to, with your role in each.")
  static final class ListOrgs extends OrgSubcommand {
    @Override
    public Integer call() {
      JsonNode orgs = api.client().get("/user/orgs");
      return print(orgs, out -> orgs.forEach(org -> show(out, org)));
    }
  }

  @Command(name = "get", description = "Show one org (default: the --org one).")
  static final class GetOrg extends OrgSubcommand {
    @Parameters(index = "0", paramLabel = "ORG", arity = "0..1") String name;

    @Override
    public Integer call() {
      JsonNode org = api.client().get("/orgs/" + segment(name != null ? name : api.org()));
      return print(org, out -> show(out, org));
    }
  }
}
