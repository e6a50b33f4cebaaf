package io.floe.bootstrap.cli;

import picocli.CommandLine.Option;

/**
 * How a client command reaches a running Floe: its URL, an API token and the org to act in. Each
 * falls back to an environment variable so that scripts set them once.
 */
public final class ApiOptions {
  @Option(names = "--url", paramLabel = "URL",
      defaultValue = "${env:FLOE_URL:-http://127.0.0.1:8181}",
      description = "Floe server URL (env FLOE_URL; default: ${DEFAULT-VALUE})")
  String url;

  @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:FLOE_TOKEN}",
      description = "API token (env FLOE_TOKEN); 'floe serve' writes the admin token to "
          + "<data dir>/admin.token")
  String token;

  @Option(names = "--org", paramLabel = "ORG", defaultValue = "${env:FLOE_ORG:-my-org}",
      description = "Org to act in (env FLOE_ORG; default: ${DEFAULT-VALUE})")
  String org;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  OutputFormat output;

  public enum OutputFormat { text, json }

  public ApiClient client() {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("no API token: pass --token or set FLOE_TOKEN");
    }
    return new ApiClient(url, token);
  }

  public String org() {
    return org;
  }

  public boolean json() {
    return output == OutputFormat.json;
  }
}
