package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe teams ...}: which users a team has; grants to the team reach them. */
@Command(name = "teams", mixinStandardHelpOptions = true,
    description = "Manage the users of the org's teams ('floe principals create --kind team').",
    subcommands = {TeamsCommand.Members.class, TeamsCommand.AddMember.class,
        TeamsCommand.RemoveMember.class})
public final class TeamsCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  abstract static class TeamSubcommand extends OrgSubcommand {
    @Parameters(index = "0", paramLabel = "TEAM_ID") String team;

    String members() {
      return orgPath() + "/teams/" + segment(team) + "/members";
    }
  }

  @Command(name = "members", description = "List a team's users.")
  static final class Members extends TeamSubcommand {
    @Override
    public Integer call() {
      JsonNode users = api.client().get(members());
      return print(users, out -> users.forEach(user -> PrincipalsCommand.show(out, user)));
    }
  }

  @Command(name = "add-member", description = "Add a user to a team.")
  static final class AddMember extends TeamSubcommand {
    @Parameters(index = "1", paramLabel = "USER_ID") String user;

    @Override
    public Integer call() {
      JsonNode none = api.client().post(members(), Map.of("principal_id", user));
      return print(none, out -> out.println("added " + user + " to " + team));
    }
  }

  @Command(name = "remove-member", description = "Remove a user from a team.")
  static final class RemoveMember extends TeamSubcommand {
    @Parameters(index = "1", paramLabel = "USER_ID") String user;

    @Override
    public Integer call() {
      JsonNode none = api.client().delete(members() + "/" + segment(user));
      return print(none, out -> out.println("removed " + user + " from " + team));
    }
  }
}
