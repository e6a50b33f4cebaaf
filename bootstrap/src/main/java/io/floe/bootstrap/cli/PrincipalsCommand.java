package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe principals ...}: the org's users, API clients and teams, and their roles. */
@Command(name = "principals", mixinStandardHelpOptions = true,
    description = "Manage the org's users, API clients and teams and their roles.",
    subcommands = {PrincipalsCommand.ListPrincipals.class, PrincipalsCommand.Create.class,
        PrincipalsCommand.SetRole.class, PrincipalsCommand.Remove.class})
public final class PrincipalsCommand implements Runnable {
  @Spec
  CommandSpec spec;

  /** The kinds as the command line spells them, with the path of each under the org. */
  enum Kind {
    user("users"), api_client("api-clients"), team("teams");

    final String path;

    Kind(String path) {
      this.path = path;
    }
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static void show(PrintWriter out, JsonNode principal) {
    out.printf("%s  %-10s %-6s %s%s%n", principal.path("id").asText(),
        principal.path("kind").asText(), principal.path("role").asText(),
        principal.path("name").asText(), principal.hasNonNull("external_id")
            ? "  (" + principal.path("external_id").asText() + ")" : "");
  }

  @Command(name = "list", description = "List the org's members, or those of one kind.")
  static final class ListPrincipals extends OrgSubcommand {
    @Option(names = "--kind", description = "${COMPLETION-CANDIDATES}") Kind kind;

    @Override
    public Integer call() {
      JsonNode members = api.client().get(orgPath() + "/"
          + (kind == null ? "members" : kind.path));
      return print(members, out -> members.forEach(member -> show(out, member)));
    }
  }

  @Command(name = "create", description = "Add a user, API client or team to the org.")
  static final class Create extends OrgSubcommand {
    @Option(names = "--kind", required = true, description = "${COMPLETION-CANDIDATES}")
    Kind kind;

    @Parameters(paramLabel = "NAME") String name;

    @Option(names = "--role", description = "member (default) or admin") String role;

    @Option(names = "--external-id", paramLabel = "ID",
        description = "For users: the identity provider's value of the configured claim.")
    String externalId;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("name", name);
      body.put("role", role);
      body.put("external_id", externalId);
      JsonNode created = api.client().post(orgPath() + "/" + kind.path, body);
      return print(created, out -> show(out, created));
    }
  }

  @Command(name = "set-role", description = "Make a member an admin, or a plain member again.")
  static final class SetRole extends OrgSubcommand {
    @Parameters(index = "0", paramLabel = "ID") String id;

    @Parameters(index = "1", paramLabel = "ROLE", description = "member or admin") String role;

    @Override
    public Integer call() {
      JsonNode changed = api.client().patch(orgPath() + "/members/" + segment(id),
          Map.of("role", role));
      return print(changed, out -> show(out, changed));
    }
  }

  @Command(name = "remove", description = "Remove a member from the org, with its grants here.")
  static final class Remove extends OrgSubcommand {
    @Parameters(paramLabel = "ID") String id;

    @Override
    public Integer call() {
      JsonNode none = api.client().delete(orgPath() + "/members/" + segment(id));
      return print(none, out -> out.println("removed " + id));
    }
  }
}
