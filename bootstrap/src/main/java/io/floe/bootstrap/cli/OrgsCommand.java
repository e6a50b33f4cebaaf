package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code floe orgs ...}: the orgs the token's principal belongs to; operators (admins of the
 * server's bootstrap org) also create orgs and switch their Iceberg feature flag.
 */
@Command(name = "orgs", mixinStandardHelpOptions = true,
    description = "Show the orgs you belong to; operators create orgs and switch Iceberg.",
    subcommands = {OrgsCommand.ListOrgs.class, OrgsCommand.GetOrg.class,
        OrgsCommand.CreateOrg.class, OrgsCommand.SetIceberg.class})
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

  @Command(name = "create", description = "Create an org with a default bucket and an admin API "
      + "client, and print the admin's token (shown this once). Operators only.")
  static final class CreateOrg extends OrgSubcommand {
    @Parameters(index = "0", paramLabel = "NAME") String name;
    @Option(names = "--no-iceberg", description = "Create it with Iceberg disabled")
    boolean noIceberg;
    @Mixin BucketsCommand.Location bucket;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("name", name);
      body.put("iceberg_enabled", !noIceberg);
      Map<String, Object> location = bucket.body();
      if (!location.isEmpty()) {
        body.put("default_bucket", location);
      }
      JsonNode created = api.client().post("/orgs", body);
      return print(created, out -> {
        out.printf("created org %s  iceberg: %s  %s%n", created.path("name").asText(),
            created.path("iceberg_enabled").asBoolean() ? "on" : "off",
            created.path("id").asText());
        out.print("default bucket: ");
        BucketsCommand.show(out, created.path("default_bucket"));
        out.printf("admin: %s (%s)%n", created.path("admin").path("name").asText(),
            created.path("admin").path("id").asText());
        out.printf("token (shown this once): %s%n", created.path("token").asText());
      });
    }
  }

  @Command(name = "set-iceberg", description = "Turn an org's Iceberg feature flag on or off. "
      + "Operators only.")
  static final class SetIceberg extends OrgSubcommand {
    @Parameters(index = "0", paramLabel = "NAME") String name;
    @ArgGroup(exclusive = true, multiplicity = "1") Switch to;

    static final class Switch {
      @Option(names = "--enabled", required = true) boolean enabled;
      @Option(names = "--disabled", required = true) boolean disabled;
    }

    @Override
    public Integer call() {
      JsonNode org = api.client().patch("/orgs/" + segment(name),
          Map.of("iceberg_enabled", to.enabled));
      return print(org, out -> out.printf("%s  iceberg: %s%n", org.path("name").asText(),
          org.path("iceberg_enabled").asBoolean() ? "on" : "off"));
    }
  }
}
