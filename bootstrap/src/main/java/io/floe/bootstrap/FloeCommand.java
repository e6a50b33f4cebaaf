package io.floe.bootstrap;

import io.floe.bootstrap.cli.AuditCommand;
import io.floe.bootstrap.cli.BucketsCommand;
import io.floe.bootstrap.cli.GrantsCommand;
import io.floe.bootstrap.cli.NamespacesCommand;
import io.floe.bootstrap.cli.OrgsCommand;
import io.floe.bootstrap.cli.PrincipalsCommand;
import io.floe.bootstrap.cli.ReposCommand;
import io.floe.bootstrap.cli.TablesCommand;
import io.floe.bootstrap.cli.TeamsCommand;
import io.floe.bootstrap.cli.TokensCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code floe} command line. */
@Command(
    name = "floe",
    mixinStandardHelpOptions = true,
    versionProvider = FloeVersion.class,
    description = {
        "Floe: an organization-scoped Apache Iceberg REST catalog, with Icechunk repositories "
            + "beside the tables.",
        "",
        "Run 'floe serve' to start a server; 'floe <command> --help' explains each command."},
    subcommands = {ServeCommand.class, ReposCommand.class, NamespacesCommand.class,
        TablesCommand.class, PrincipalsCommand.class, TeamsCommand.class, TokensCommand.class,
        GrantsCommand.class, AuditCommand.class, OrgsCommand.class, BucketsCommand.class,
        SecretsCommand.class, CommandLine.HelpCommand.class})
public final class FloeCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    return new CommandLine(new FloeCommand())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler((error, commandLine, parseResult) -> {
          // A failure to start is reported as one readable line; FLOE_DEBUG=1 shows the trace.
          if (System.getenv("FLOE_DEBUG") != null) {
            error.printStackTrace();
          }
          commandLine.getErr().println("floe: error: " + error.getMessage());
          return 1;
        });
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
