package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.query;
import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe repos ...}: an org's Icechunk repos, through a running server's HTTP API. */
@Command(name = "repos", mixinStandardHelpOptions = true,
    description = "Manage and browse the org's Icechunk repos on a running Floe server.",
    subcommands = {ReposCommand.ListRepos.class, ReposCommand.GetRepo.class,
        ReposCommand.CreateRepo.class, ReposCommand.DeleteRepo.class,
        ReposCommand.RestoreRepo.class, ReposCommand.Refs.class, ReposCommand.Log.class,
        ReposCommand.Attrs.class, RepoGarbageCommand.class})
public final class ReposCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** What every subcommand shares: the connection, the output stream, the org's repos path. */
  abstract static class RepoSubcommand implements Callable<Integer> {
    @Mixin
    ApiOptions api;

    @Spec
    CommandSpec spec;

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    String repos() {
      return "/orgs/" + segment(api.org()) + "/repos";
    }

    String repo(String name) {
      return repos() + "/" + segment(name);
    }

    /** Prints the JSON as it came, or hands it to the text renderer. */
    Integer print(JsonNode body, java.util.function.BiConsumer<PrintWriter, JsonNode> text) {
      if (api.json()) {
        RepoText.json(out(), body);
      } else {
        text.accept(out(), body);
      }
      out().flush();
      return 0;
    }
  }

  @Command(name = "list", description = "List the org's repos.")
  static final class ListRepos extends RepoSubcommand {
    @Option(names = "--deleted", description = "List soft-deleted repos that can be restored.")
    boolean deleted;

    @Override
    public Integer call() {
      JsonNode body = api.client().get(repos() + (deleted ? "?deleted=true" : ""));
      return print(body, (out, json) -> RepoText.repoTable(out, json.path("repos"), deleted));
    }
  }

  @Command(name = "get", description = "Show a repo and its storage location.")
  static final class GetRepo extends RepoSubcommand {
    @Parameters(paramLabel = "REPO")
    String name;

    @Override
    public Integer call() {
      return print(api.client().get(repo(name)), RepoText::repo);
    }
  }

  @Command(name = "create", description = "Create a repo: an empty Icechunk repository at a "
      + "prefix the server chooses in one of the org's buckets.")
  static final class CreateRepo extends RepoSubcommand {
    @Parameters(paramLabel = "REPO")
    String name;

    @Option(names = "--bucket", paramLabel = "NICKNAME",
        description = "Bucket configuration to use (default: the org's default bucket)")
    String bucket;

    @Option(names = "--description", paramLabel = "TEXT")
    String description;

    @Override
    public Integer call() {
      Map<String, String> body = new LinkedHashMap<>();
      body.put("name", name);
      if (bucket != null) {
        body.put("bucket_nickname", bucket);
      }
      if (description != null) {
        body.put("description", description);
      }
      return print(api.client().post(repos(), body), RepoText::repo);
    }
  }

  @Command(name = "delete", description = "Soft-delete a repo; it can be restored during the "
      + "org's recovery period.")
  static final class DeleteRepo extends RepoSubcommand {
    @Parameters(paramLabel = "REPO")
    String name;
    @Option(names = "--immediate", description = "Free the name now; no restore.")
    boolean immediate;
    @Option(names = "--retain-data", description = "Leave the files when the repo is purged.")
    boolean retainData;

    @Override
    public Integer call() {
      api.client().delete(repo(name) + "?immediate=" + immediate + "&retain_data=" + retainData);
      if (immediate && !api.json()) {
        out().println("Deleted repo '" + name + "'; the name is free now.");
        out().flush();
      } else if (!api.json()) {
        out().println("Deleted repo '" + name + "'. 'floe repos restore " + name
            + "' brings it back during the recovery period.");
        out().flush();
      }
      return 0;
    }
  }

  @Command(name = "restore", description = "Restore a soft-deleted repo.")
  static final class RestoreRepo extends RepoSubcommand {
    @Parameters(paramLabel = "REPO")
    String name;

    @Override
    public Integer call() {
      return print(api.client().post(repo(name) + "/restore", Map.of()), RepoText::repo);
    }
  }

  @Command(name = "refs", description = "List a repo's branches and tags with their snapshots.")
  static final class Refs extends RepoSubcommand {
    @Parameters(paramLabel = "REPO")
    String name;

    @Override
    public Integer call() {
      return print(api.client().get(repo(name) + "/refs"), RepoText::refs);
    }
  }

  @Command(name = "log", description = "Show a repo's history from a ref, newest first.")
  static final class Log extends RepoSubcommand {
    @Parameters(paramLabel = "REPO")
    String name;

    @Option(names = "--ref", defaultValue = "main",
        description = "Branch, tag or snapshot id (default: ${DEFAULT-VALUE})")
    String ref;

    @Option(names = {"-n", "--limit"}, defaultValue = "100",
        description = "At most this many commits (default: ${DEFAULT-VALUE})")
    int limit;

    @Override
    public Integer call() {
      return print(api.client().get(repo(name) + "/log?ref=" + query(ref) + "&limit=" + limit),
          RepoText::log);
    }
  }

  @Command(name = "attrs", description = "Show the attributes of a group or array at a ref.")
  static final class Attrs extends RepoSubcommand {
    @Parameters(index = "0", paramLabel = "REPO")
    String name;

    @Parameters(index = "1", paramLabel = "PATH", defaultValue = "/",
        description = "Node path, e.g. /group/array (default: the root group)")
    String path;

    @Option(names = "--ref", defaultValue = "main",
        description = "Branch, tag or snapshot id (default: ${DEFAULT-VALUE})")
    String ref;

    @Override
    public Integer call() {
      return print(api.client().get(repo(name) + "/nodes?ref=" + query(ref) + "&path="
          + query(path)), RepoText::node);
    }
  }
}
