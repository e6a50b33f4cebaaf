package io.floe.bootstrap.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;

/** Renders the repo API's JSON for people; {@code --output json} prints the JSON itself. */
final class RepoText {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RepoText() {}

  static void json(PrintWriter out, JsonNode node) {
    try {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static void repoTable(PrintWriter out, JsonNode repos, boolean deleted) {
    if (repos.isEmpty()) {
      out.println(deleted ? "No deleted repos can be restored." : "No repos.");
      return;
    }
    String format = "%-30s %-12s %-27s %s%n";
    out.printf(format, "NAME", "BUCKET", deleted ? "RESTORABLE UNTIL" : "CREATED", "DESCRIPTION");
    for (JsonNode repo : repos) {
      out.printf(format, repo.path("name").asText(), repo.path("bucket_nickname").asText(),
          repo.path(deleted ? "restorable_until" : "created_at").asText(),
          repo.path("description").asText(""));
    }
  }

  static void repo(PrintWriter out, JsonNode repo) {
    field(out, "name", repo.path("name"));
    field(out, "id", repo.path("id"));
    field(out, "description", repo.path("description"));
    field(out, "bucket", repo.path("bucket_nickname"));
    field(out, "location", repo.path("location"));
    field(out, "created", repo.path("created_at"));
    field(out, "deleted", repo.path("deleted_at"));
    field(out, "restorable until", repo.path("restorable_until"));
  }

  static void refs(PrintWriter out, JsonNode refs) {
    for (JsonNode branch : refs.path("branches")) {
      out.printf("branch  %-30s %s%n", branch.path("name").asText(),
          branch.path("snapshot_id").asText());
    }
    for (JsonNode tag : refs.path("tags")) {
      out.printf("tag     %-30s %s%n", tag.path("name").asText(), tag.path("snapshot_id").asText());
    }
  }

  /** Like {@code git log}: id, parent, time, the message indented, metadata when there is any. */
  static void log(PrintWriter out, JsonNode log) {
    boolean first = true;
    for (JsonNode commit : log.path("commits")) {
      if (!first) {
        out.println();
      }
      first = false;
      out.println("commit " + commit.path("id").asText());
      if (!commit.path("parent_id").isNull()) {
        out.println("parent " + commit.path("parent_id").asText());
      }
      out.println("date   " + commit.path("written_at").asText());
      out.println();
      commit.path("message").asText().lines().forEach(line -> out.println("    " + line));
      if (!commit.path("metadata").isEmpty()) {
        out.println("    metadata: " + commit.path("metadata"));
      }
    }
  }

  static void node(PrintWriter out, JsonNode node) {
    out.println(node.path("node_type").asText() + " " + node.path("path").asText() + " at "
        + node.path("ref").asText());
    json(out, node.path("attributes"));
    for (JsonNode child : node.path("children")) {
      out.println("  " + child.asText());
    }
  }

  private static void field(PrintWriter out, String label, JsonNode value) {
    if (!value.isMissingNode() && !value.isNull()) {
      out.printf("%-17s %s%n", label + ":", value.asText());
    }
  }
}
