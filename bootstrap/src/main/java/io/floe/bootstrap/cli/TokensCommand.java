package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.query;
import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe tokens ...}: API tokens of the org's users and API clients. */
@Command(name = "tokens", mixinStandardHelpOptions = true,
    description = "Issue, list and revoke API tokens of the org's users and API clients.",
    subcommands = {TokensCommand.Issue.class, TokensCommand.ListTokens.class,
        TokensCommand.Revoke.class})
public final class TokensCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static void show(PrintWriter out, JsonNode token) {
    out.printf("%s  principal %s  created %s  expires %s  last used %s%s%s%n",
        token.path("id").asText(), token.path("principal_id").asText(),
        token.path("created_at").asText(), token.path("expires_at").asText("never"),
        token.path("last_used_at").asText("never"),
        token.hasNonNull("revoked_at") ? "  REVOKED " + token.path("revoked_at").asText() : "",
        token.hasNonNull("description") ? "  " + token.path("description").asText() : "");
  }

  @Command(name = "issue", description = "Issue a token; its secret is printed this once.")
  static final class Issue extends OrgSubcommand {
    @Parameters(paramLabel = "PRINCIPAL_ID") String principal;

    @Option(names = "--expires-in", paramLabel = "DURATION", converter = Durations.class,
        description = "Lifetime, e.g. 30d, 12h (default: no expiry).")
    Duration expiresIn;

    @Option(names = "--description") String description;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("principal_id", principal);
      body.put("description", description);
      if (expiresIn != null) {
        body.put("expires_in_seconds", expiresIn.toSeconds());
      }
      JsonNode issued = api.client().post(orgPath() + "/tokens", body);
      return print(issued, out -> {
        out.println(issued.path("token").asText());
        show(out, issued);
      });
    }
  }

  @Command(name = "list", description = "List tokens (never their secrets).")
  static final class ListTokens extends OrgSubcommand {
    @Option(names = "--principal", paramLabel = "ID") String principal;

    @Override
    public Integer call() {
      JsonNode tokens = api.client().get(orgPath() + "/tokens"
          + (principal == null ? "" : "?principal_id=" + query(principal)));
      return print(tokens, out -> tokens.forEach(token -> show(out, token)));
    }
  }

  @Command(name = "revoke", description = "Revoke a token: it stops working at once.")
  static final class Revoke extends OrgSubcommand {
    @Parameters(paramLabel = "TOKEN_ID") String id;

    @Override
    public Integer call() {
      JsonNode revoked = api.client().delete(orgPath() + "/tokens/" + segment(id));
      return print(revoked, out -> show(out, revoked));
    }
  }
}
