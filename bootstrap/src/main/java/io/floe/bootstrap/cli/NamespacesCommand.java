package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.query;
import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe namespaces ...}: the org's Iceberg namespaces, through the management API. */
@Command(name = "namespaces", mixinStandardHelpOptions = true,
    description = "Manage the org's Iceberg namespaces on a running Floe server.",
    subcommands = {NamespacesCommand.Create.class, NamespacesCommand.Get.class,
        NamespacesCommand.Update.class, NamespacesCommand.ListNamespaces.class,
        NamespacesCommand.Delete.class, NamespacesCommand.Restore.class,
        PolicyCommand.OfNamespace.class})
public final class NamespacesCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  abstract static class NamespaceSubcommand extends OrgSubcommand {
    String namespaces() {
      return orgPath() + "/iceberg/namespaces";
    }

    String namespace(String name) {
      return namespaces() + "/" + segment(name);
    }

    static void show(PrintWriter out, JsonNode ns) {
      out.printf("%s  (bucket %s, prefix %s, %s, %d tables)%n", ns.path("name").asText(),
          ns.path("bucket_nickname").asText(), ns.path("prefix").asText(),
          ns.path("visibility").asText(), ns.path("table_count").asLong());
      if (!ns.path("description").isNull() && !ns.path("description").isMissingNode()) {
        out.println("  " + ns.path("description").asText());
      }
      if (ns.path("metadata").size() > 0) {
        out.println("  metadata: " + ns.path("metadata"));
      }
      if (!ns.path("deleted_at").isNull() && !ns.path("deleted_at").isMissingNode()) {
        out.println("  deleted at " + ns.path("deleted_at").asText());
      }
    }
  }

  @Command(name = "create", description = "Create a namespace on the chosen or default bucket.")
  static final class Create extends NamespaceSubcommand {
    @Parameters(paramLabel = "NAME")
    String name;

    @Option(names = "--bucket", paramLabel = "NICKNAME", description = "Bucket configuration.")
    String bucket;

    @Option(names = "--description") String description;

    @Option(names = "--metadata", paramLabel = "JSON", description = "Typed metadata object.")
    String metadata;

    @Option(names = "--properties", paramLabel = "JSON", description = "Iceberg properties.")
    String properties;

    @Option(names = "--visibility", paramLabel = "VISIBILITY",
        description = "PRIVATE (default) or AUTHENTICATED_PUBLIC.")
    String visibility;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("name", name);
      putIfSet(body, "bucket_nickname", bucket);
      putIfSet(body, "description", description);
      putIfSet(body, "visibility", visibility);
      if (metadata != null) {
        body.put("metadata", parseJson(metadata, "--metadata"));
      }
      if (properties != null) {
        body.put("properties", parseJson(properties, "--properties"));
      }
      JsonNode created = api.client().post(namespaces(), body);
      return print(created, out -> show(out, created));
    }
  }

  @Command(name = "get", description = "Show a namespace.")
  static final class Get extends NamespaceSubcommand {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    public Integer call() {
      JsonNode found = api.client().get(namespace(name));
      return print(found, out -> show(out, found));
    }
  }

  @Command(name = "update",
      description = "Change description, metadata or visibility; --description '' clears it.")
  static final class Update extends NamespaceSubcommand {
    @Parameters(paramLabel = "NAME")
    String name;

    @Option(names = "--description") String description;

    @Option(names = "--add-metadata", paramLabel = "JSON") String addMetadata;

    @Option(names = "--update-metadata", paramLabel = "JSON") String updateMetadata;

    @Option(names = "--remove-metadata", paramLabel = "KEY",
        description = "A metadata key to remove; repeat for more.")
    List<String> removeMetadata;

    @Option(names = "--visibility", paramLabel = "VISIBILITY") String visibility;

    @Override
    public Integer call() {
      Map<String, Object> body = new LinkedHashMap<>();
      putIfSet(body, "description", description);
      putIfSet(body, "visibility", visibility);
      if (addMetadata != null) {
        body.put("add_metadata", parseJson(addMetadata, "--add-metadata"));
      }
      if (updateMetadata != null) {
        body.put("update_metadata", parseJson(updateMetadata, "--update-metadata"));
      }
      if (removeMetadata != null) {
        body.put("remove_metadata", removeMetadata);
      }
      JsonNode updated = api.client().patch(namespace(name), body);
      return print(updated, out -> show(out, updated));
    }
  }

  @Command(name = "list", description = "List namespaces: search, filter, sort and page.")
  static final class ListNamespaces extends NamespaceSubcommand {
    @Option(names = "--search") String search;

    @Option(names = "--filter-metadata", paramLabel = "JSON") String filterMetadata;

    @Option(names = "--sort", description = "relevance, updated, created, name or tables.")
    String sort;

    @Option(names = "--direction", description = "asc or desc (default).") String direction;

    @Option(names = "--include-ghosts", description = "Also deleted, restorable namespaces.")
    boolean includeGhosts;

    @Option(names = "--page", defaultValue = "1") int page;

    @Option(names = "--page-size", defaultValue = "50") int size;

    @Override
    public Integer call() {
      StringBuilder path = new StringBuilder(namespaces() + "/paginated?page=" + page
          + "&size=" + size);
      appendIfSet(path, "search", search);
      appendIfSet(path, "sort", sort);
      appendIfSet(path, "direction", direction);
      if (filterMetadata != null) {
        appendIfSet(path, "filter_metadata",
            parseJson(filterMetadata, "--filter-metadata").toString());
      }
      if (includeGhosts) {
        path.append("&include_ghosts=true");
      }
      JsonNode listed = api.client().get(path.toString());
      return print(listed, out -> {
        listed.path("items").forEach(ns -> show(out, ns));
        out.printf("page %d of %d (%d namespaces)%n", listed.path("page").asInt(),
            listed.path("pages").asInt(), listed.path("total").asLong());
      });
    }
  }

  @Command(name = "delete", description = {"Delete an empty namespace.",
      "By default a soft delete: restorable during the recovery period."})
  static final class Delete extends NamespaceSubcommand {
    @Parameters(paramLabel = "NAME")
    String name;

    @Option(names = "--immediate",
        description = "Skip the recovery period: not restorable, the name is free at once.")
    boolean immediate;

    @Option(names = "--retain-data",
        description = "Leave the files under the namespace's prefix in the bucket.")
    boolean retainData;

    @Option(names = "--confirm", description = "Do not ask for confirmation.")
    boolean confirm;

    @Override
    public Integer call() {
      if (!confirm && !confirmed("Delete namespace " + api.org() + "/" + name
          + (immediate ? " now, without a recovery period" : "") + "?")) {
        out().println("Not deleted.");
        out().flush();
        return 1;
      }
      api.client().delete(namespace(name) + "?imsure=true"
          + (immediate ? "&immediate=true" : "") + (retainData ? "&retain_data=true" : ""));
      out().println(immediate ? "Deleted namespace " + name + "; it cannot be restored."
          : "Deleted namespace " + name + "; 'floe namespaces restore " + name
              + "' brings it back during the recovery period.");
      out().flush();
      return 0;
    }
  }

  @Command(name = "restore", description = "Restore a soft-deleted namespace.")
  static final class Restore extends NamespaceSubcommand {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    public Integer call() {
      JsonNode restored = api.client().post(namespace(name) + "/restore", Map.of());
      return print(restored, out -> show(out, restored));
    }
  }

  static void putIfSet(Map<String, Object> body, String field, String value) {
    if (value != null) {
      body.put(field, value);
    }
  }

  static void appendIfSet(StringBuilder path, String parameter, String value) {
    if (value != null) {
      path.append('&').append(parameter).append('=').append(query(value));
    }
  }
}
