package io.floe.bootstrap.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code floe} command line without the server: every command that talks to a running Floe
 * over HTTP. It is the main class of the small {@code floe-cli.jar}, which starts in a fraction of
 * the server jar's time; {@code floe.jar} runs the same commands plus {@code serve}.
 *
 * <p>picocli reads a command's options by reflection, which costs more start-up time than
 * anything else the client does; so only the command being run is read, and all of them only when
 * the command line must list them (help, no command, an unknown command).
 */
@Command(
    name = "floe",
    mixinStandardHelpOptions = true,
    versionProvider = FloeVersion.class,
    description = {
        "Floe: an organization-scoped Apache Iceberg REST catalog, with Icechunk repositories "
            + "beside the tables.",
        "",
        "Run 'floe serve' to start a server; 'floe <command> --help' explains each command."})
public final class FloeCli implements Runnable {
  private static final Set<String> HELP = Set.of("help", "-h", "--help");

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine(ServeElsewhere::new, SecretsElsewhere::new, args).execute(args));
  }

  /**
   * The command line for {@code args}, with {@code serve} and {@code secrets} (the commands that
   * work on the server's data directory and database) as given: themselves, or where to find
   * them. With no arguments, every command is there.
   */
  public static CommandLine commandLine(Supplier<Object> serve, Supplier<Object> secrets,
      String... args) {
    Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
    commands.put("serve", serve);
    commands.put("repos", ReposCommand::new);
    commands.put("namespaces", NamespacesCommand::new);
    commands.put("tables", TablesCommand::new);
    commands.put("principals", PrincipalsCommand::new);
    commands.put("teams", TeamsCommand::new);
    commands.put("tokens", TokensCommand::new);
    commands.put("subscriptions", SubscriptionsCommand::new);
    commands.put("grants", GrantsCommand::new);
    commands.put("audit", AuditCommand::new);
    commands.put("check", CheckCommand::new);
    commands.put("orgs", OrgsCommand::new);
    commands.put("buckets", BucketsCommand::new);
    commands.put("secrets", secrets);
    // Every command when they must be listed (no arguments, help, a command that does not
    // exist); only the one asked for otherwise, and none for an option such as --version.
    String first = args.length == 0 ? null : args[0];
    boolean all = first == null || HELP.contains(first)
        || !first.startsWith("-") && !commands.containsKey(first);
    CommandLine commandLine = new CommandLine(new FloeCli());
    commands.forEach((name, command) -> {
      if (all || name.equals(first)) {
        commandLine.addSubcommand(name, command.get());
      }
    });
    return commandLine.addSubcommand("help", new CommandLine.HelpCommand())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler((error, failed, parseResult) -> {
          // A failure is reported as one readable line; FLOE_DEBUG=1 shows the trace.
          if (System.getenv("FLOE_DEBUG") != null) {
            error.printStackTrace();
          }
          failed.getErr().println("floe: error: " + error.getMessage());
          return 1;
        });
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** {@code serve} in the client jar, which has no server in it. */
  @Command(name = "serve", description = "Start the Floe server (runs from floe.jar).")
  static final class ServeElsewhere implements Runnable {
    @Override
    public void run() {
      throw new IllegalStateException("the server is in floe.jar: run 'java -jar floe.jar "
          + "serve' (the floe launcher script does this for you)");
    }
  }

  /** {@code secrets} in the client jar, which cannot open the server's database. */
  @Command(name = "secrets",
      description = "Manage the key that seals bucket credentials (runs from floe.jar).")
  static final class SecretsElsewhere implements Runnable {
    @Override
    public void run() {
      throw new IllegalStateException("'secrets' works on the server's database and is in "
          + "floe.jar: run 'java -jar floe.jar secrets ...' (the floe launcher script does this "
          + "for you)");
    }
  }
}
