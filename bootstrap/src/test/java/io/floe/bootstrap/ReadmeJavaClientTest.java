package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The Java block of "Connect your engine" (docs/engines.md), run as written against a Floe on its
 * defaults: only the catalog URI and the admin token are swapped for the running server's.
 */
@FloeServerTest
class ReadmeJavaClientTest {
  private static final Pattern JAVA_BLOCK =
      Pattern.compile("(?ms)^## Java\\b.*?^```java\\n(.*?)^```$");
  private static final Pattern PROPERTY = Pattern.compile("\"([^\"]+)\",\\s*\"([^\"]+)\"");
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "kind", Types.StringType.get()));

  @Test
  void theReadmeConfigurationCreatesCommitsAndLoadsTables(TestFloe floe) throws Exception {
    String block = readmeJavaBlock();
    assertThat(block).contains("new RESTCatalog()", "catalog.setConf(new Configuration())",
        "catalog.initialize(\"floe\", Map.of(");
    Map<String, String> properties = properties(block);
    assertThat(properties).containsOnlyKeys("uri", "warehouse", "token")
        .containsEntry("uri", "http://127.0.0.1:8181/iceberg")
        .containsEntry("token", "ema_...");
    properties.put("uri", floe.uri());
    properties.put("token", floe.operators().token());

    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.setConf(new Configuration());
      catalog.initialize("floe", Map.copyOf(properties));

      Namespace namespace = Namespace.of("java-tables");
      catalog.createNamespace(namespace);
      Table events = catalog.createTable(TableIdentifier.of(namespace, "events"), SCHEMA);
      events.updateSchema().addColumn("note", Types.StringType.get()).commit();
      events.updateProperties().set("owner", "readme").commit();
      // A create transaction is a staged create, committed with its first change.
      Transaction staged = catalog.buildTable(TableIdentifier.of(namespace, "staged"), SCHEMA)
          .withPartitionSpec(PartitionSpec.builderFor(SCHEMA).identity("kind").build())
          .createTransaction();
      staged.updateProperties().set("stage", "one").commit();
      staged.commitTransaction();

      Table loaded = catalog.loadTable(TableIdentifier.of(namespace, "events"));
      assertThat(loaded.schema().findField("note")).isNotNull();
      assertThat(loaded.properties()).containsEntry("owner", "readme");
      assertThat(catalog.loadTable(TableIdentifier.of(namespace, "staged")).properties())
          .containsEntry("stage", "one");
      assertThat(catalog.listTables(namespace)).containsExactlyInAnyOrder(
          TableIdentifier.of(namespace, "events"), TableIdentifier.of(namespace, "staged"));
    }
  }

  private static String readmeJavaBlock() throws IOException {
    Path engines = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent()
        .resolve("docs/engines.md");
    Matcher block = JAVA_BLOCK.matcher(Files.readString(engines));
    assertThat(block.find()).as("docs/engines.md has a ```java block under '## Java'").isTrue();
    return block.group(1);
  }

  /** The {@code "key", "value"} pairs of the block's {@code Map.of(...)}, in order. */
  private static Map<String, String> properties(String block) {
    Map<String, String> properties = new LinkedHashMap<>();
    Matcher pair = PROPERTY.matcher(block.substring(block.indexOf("Map.of(")));
    while (pair.find()) {
      properties.put(pair.group(1), pair.group(2));
    }
    return properties;
  }
}
