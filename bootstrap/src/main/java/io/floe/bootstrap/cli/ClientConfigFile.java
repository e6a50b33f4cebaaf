package io.floe.bootstrap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The client's settings file, the last place the client commands look for the server URL, the
 * token and the org (after flags and environment variables), so that a workstation can keep them
 * out of every command line: a JSON object with {@code url}, {@code token} and {@code org}, all
 * optional. A missing file is no error; an unreadable one is, since it was meant to be read.
 */
final class ClientConfigFile {
  /** Where the file is when neither {@code --config} nor {@code FLOE_CONFIG} says otherwise. */
  static Path defaultLocation() {
    return Path.of(System.getProperty("user.home"), ".config", "floe", "config.json");
  }

  private final JsonNode settings;

  private ClientConfigFile(JsonNode settings) {
    this.settings = settings;
  }

  static ClientConfigFile read(Path file) {
    if (!Files.isRegularFile(file)) {
      return new ClientConfigFile(MissingNode.getInstance());
    }
    try {
      JsonNode settings = new ObjectMapper().readTree(file.toFile());
      if (settings == null || !settings.isObject()) {
        throw new IllegalArgumentException("config file " + file + " must hold a JSON object");
      }
      return new ClientConfigFile(settings);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read config file " + file + ": "
          + e.getMessage(), e);
    }
  }

  Optional<String> url() {
    return text("url");
  }

  Optional<String> token() {
    return text("token");
  }

  Optional<String> org() {
    return text("org");
  }

  private Optional<String> text(String field) {
    JsonNode value = settings.path(field);
    return value.isTextual() && !value.asText().isBlank()
        ? Optional.of(value.asText()) : Optional.empty();
  }
}
