package io.floe.bootstrap;

import io.floe.bootstrap.cli.FloeCli;
import picocli.CommandLine;

/**
 * The {@code floe} command line of the server jar: {@code serve}, {@code secrets} and the client
 * commands of {@link FloeCli}.
 */
public final class FloeCommand {
  private FloeCommand() {}

  public static void main(String[] args) {
    System.exit(commandLine(args).execute(args));
  }

  /** The command line for {@code args}; with none, every command is there. */
  static CommandLine commandLine(String... args) {
    return FloeCli.commandLine(ServeCommand::new, SecretsCommand::new, args);
  }
}
