package io.floe.bootstrap.cli;

import static io.floe.bootstrap.cli.ApiClient.segment;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.domain.TableIdentifierSyntax;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code floe tables ...}: find and describe the org's Iceberg tables. */
@Command(name = "tables", mixinStandardHelpOptions = true,
    description = "List and describe Iceberg tables on a running Floe server.",
    subcommands = {TablesCommand.ListTables.class, TablesCommand.Describe.class,
        TableMaintainCommand.class, TableMaintenanceJobsCommand.class,
        PolicyCommand.OfTable.class})
public final class TablesCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "list",
      description = "List a namespace's tables from their catalog rows (no metadata reads).")
  static final class ListTables extends OrgSubcommand {
    @Parameters(paramLabel = "NAMESPACE")
    String namespace;

    @Option(names = "--search") String search;

    @Option(names = "--sort", description = "relevance, updated, created or name.") String sort;

    @Option(names = "--direction", description = "asc or desc (default).") String direction;

    @Option(names = "--page", defaultValue = "1") int page;

    @Option(names = "--page-size", defaultValue = "50") int size;

    @Override
    public Integer call() {
      StringBuilder path = new StringBuilder(orgPath() + "/iceberg/namespaces/"
          + segment(namespace) + "/tables/paginated?page=" + page + "&size=" + size);
      NamespacesCommand.appendIfSet(path, "search", search);
      NamespacesCommand.appendIfSet(path, "sort", sort);
      NamespacesCommand.appendIfSet(path, "direction", direction);
      JsonNode listed = api.client().get(path.toString());
      return print(listed, out -> {
        listed.path("items").forEach(table -> out.printf("%-50s updated %s%s%n",
            new TableIdentifierSyntax(table.path("namespace").asText(),
                table.path("name").asText()).format(),
            table.path("updated").asText(),
            table.path("has_storage_override").asBoolean() ? "  (own bucket)" : ""));
        out.printf("page %d of %d (%d tables)%n", listed.path("page").asInt(),
            listed.path("pages").asInt(), listed.path("total").asLong());
      });
    }
  }

  @Command(name = "describe", description = {"Show a table's schema, location and snapshot.",
      "IDENTIFIER is NAMESPACE.TABLE; double-quote components with dots, \"\" for a quote."})
  static final class Describe extends OrgSubcommand {
    @Parameters(paramLabel = "IDENTIFIER")
    String identifier;

    @Override
    public Integer call() {
      TableIdentifierSyntax parsed = TableIdentifierSyntax.parse(identifier);
      JsonNode loaded = api.client().get("/iceberg/v1/" + segment(api.org()) + "/namespaces/"
          + segment(parsed.namespace()) + "/tables/" + segment(parsed.table()));
      JsonNode metadata = loaded.path("metadata");
      return print(loaded, out -> {
        out.println(parsed.format());
        out.println("  metadata: " + loaded.path("metadata-location").asText());
        out.println("  location: " + metadata.path("location").asText());
        out.println("  current snapshot: " + metadata.path("current-snapshot-id").asText());
        metadata.path("schemas").forEach(schema -> {
          if (schema.path("schema-id").equals(metadata.path("current-schema-id"))) {
            schema.path("fields").forEach(field -> out.printf("  %-30s %s%n",
                field.path("name").asText(), field.path("type").asText(field.path("type")
                    .toString())));
          }
        });
      });
    }
  }
}
