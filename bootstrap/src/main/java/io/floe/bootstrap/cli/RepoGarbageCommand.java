package io.floe.bootstrap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code floe repos gc REPO}: lists what a repo stores that no branch or tag reaches (Icechunk
 * objects and the files of its tables) and is older than the grace period; deletes it only with
 * {@code --delete}.
 */
@Command(name = "gc", description = "Find (and with --delete remove) what a repo stores that no "
    + "branch or tag reaches: Icechunk objects and its tables' files. A dry run by default.")
final class RepoGarbageCommand extends ReposCommand.RepoSubcommand {
  @Parameters(paramLabel = "REPO")
  String name;

  @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "3d",
      converter = Durations.class,
      description = "Spare unreachable objects written more recently than this, e.g. 7d, 12h, "
          + "30m (default: ${DEFAULT-VALUE})")
  Duration grace;

  @Option(names = "--delete", description = "Delete the objects; without it nothing is deleted.")
  boolean delete;

  @Override
  public Integer call() {
    JsonNode body = api.client().post(repo(name) + "/gc",
        Map.of("dry_run", !delete, "grace_seconds", grace.toSeconds()));
    return print(body, RepoGarbageCommand::report);
  }

  private static void report(PrintWriter out, JsonNode garbage) {
    for (JsonNode object : garbage.path("objects")) {
      out.printf("%-16s %12d  %s%n", object.path("kind").asText(),
          object.path("size_bytes").asLong(), object.path("key").asText());
    }
    long count = garbage.path("objects").size();
    long bytes = garbage.path("total_bytes").asLong();
    out.println((garbage.path("dry_run").asBoolean() ? "Would delete " : "Deleted ") + count
        + (count == 1 ? " object, " : " objects, ") + bytes + " bytes, unreachable since before "
        + garbage.path("older_than").asText() + ".");
    long young = garbage.path("spared_young").asLong();
    if (young > 0) {
      out.println("Spared " + young + " unreachable object(s) (" + garbage.path(
          "spared_young_bytes").asLong() + " bytes) younger than the grace period.");
    }
    if (garbage.path("dry_run").asBoolean()) {
      out.println("Nothing was deleted; run again with --delete to delete.");
    }
  }
}
