package io.floe.bootstrap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A client command acting in one org: its connection, its output, JSON or text. */
abstract class OrgSubcommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Mixin
  ApiOptions api;

  @Spec
  CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  String orgPath() {
    return "/orgs/" + ApiClient.segment(api.org());
  }

  /** Prints the response as JSON with {@code --output json}, else as {@code text} renders it. */
  Integer print(JsonNode body, Consumer<PrintWriter> text) {
    if (api.json()) {
      try {
        out().println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    } else {
      text.accept(out());
    }
    out().flush();
    return 0;
  }

  /** Asks on the terminal; anything but yes is no, and so is a closed input. */
  boolean confirmed(String question) {
    out().print(question + " [y/N] ");
    out().flush();
    try {
      String answer = new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8)).readLine();
      return answer != null && answer.strip().toLowerCase(Locale.ROOT).matches("y|yes");
    } catch (IOException e) {
      return false;
    }
  }

  static JsonNode parseJson(String value, String option) {
    try {
      JsonNode node = JSON.readTree(value);
      if (!node.isObject()) {
        throw new IllegalArgumentException(option + " must be a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " is not valid JSON: " + e.getMessage());
    }
  }
}
