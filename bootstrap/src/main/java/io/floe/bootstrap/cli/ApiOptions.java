package io.floe.bootstrap.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How a client command reaches a running Floe: its URL, an API token and the org to act in. Each
 * falls back to an environment variable so that scripts set them once, then to the client's
 * config file so that a workstation sets them once, then to a default.
 */
public final class ApiOptions {
  private static final String DEFAULT_URL = "http://127.0.0.1:8181";
  private static final String DEFAULT_ORG = "my-org";

  @Option(names = "--url", paramLabel = "URL", defaultValue = "${env:FLOE_URL}",
      description = "Floe server URL (env FLOE_URL, then \"url\" in the config file; default: "
          + DEFAULT_URL + ")")
  String url;

  @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:FLOE_TOKEN}",
      description = "API token (env FLOE_TOKEN, then \"token\" in the config file); "
          + "'floe serve' writes the admin token to <data dir>/admin.token")
  String token;

  @Option(names = "--org", paramLabel = "ORG", defaultValue = "${env:FLOE_ORG}",
      description = "Org to act in (env FLOE_ORG, then \"org\" in the config file; default: "
          + DEFAULT_ORG + ")")
  String org;

  @Option(names = "--config", paramLabel = "FILE", defaultValue = "${env:FLOE_CONFIG}",
      description = "Client config file, JSON with url, token and org (env FLOE_CONFIG; "
          + "default: ~/.config/floe/config.json)")
  Path config;

  private ClientConfigFile configFile;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  OutputFormat output;

  public enum OutputFormat { text, json }

  public ApiClient client() {
    String secret = given(token).or(() -> configFile().token()).orElseThrow(() ->
        new IllegalArgumentException("no API token: pass --token, set FLOE_TOKEN or put "
            + "\"token\" in the config file"));
    return new ApiClient(given(url).or(() -> configFile().url()).orElse(DEFAULT_URL), secret);
  }

  public String org() {
    return given(org).or(() -> configFile().org()).orElse(DEFAULT_ORG);
  }

  /** Read only when a flag and its variable are both missing, so a broken file rarely matters. */
  private ClientConfigFile configFile() {
    if (configFile == null) {
      configFile = ClientConfigFile.read(config != null ? config
          : ClientConfigFile.defaultLocation());
    }
    return configFile;
  }

  private static Optional<String> given(String value) {
    return value == null || value.isBlank() ? Optional.empty()
        : Optional.of(value);
  }

  public boolean json() {
    return output == OutputFormat.json;
  }
}
