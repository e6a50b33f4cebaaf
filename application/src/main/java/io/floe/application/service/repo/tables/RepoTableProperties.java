package io.floe.application.service.repo.tables;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Properties every table of a repo keeps, as the icechest convention requires: Iceberg's own
 * cleanup judges files by the table's current version alone and would delete files that an older
 * Icechunk tag still pins. Reclaiming space is the repo's ref-aware garbage collection's job.
 */
public final class RepoTableProperties {
  public static final Map<String, String> REQUIRED = Map.of(
      "gc.enabled", "false",
      "write.metadata.delete-after-commit.enabled", "false");

  private RepoTableProperties() {}

  /** A new table's properties: the client's, with the required ones set. */
  public static Map<String, String> forNewTable(Map<String, String> requested) {
    Map<String, String> properties = new HashMap<>(requested);
    properties.putAll(REQUIRED);
    return properties;
  }

  /** Refuses a change that would switch Iceberg's cleanup back on. */
  public static void requireKept(TableMetadata metadata, String table) {
    REQUIRED.forEach((key, value) -> {
      if (!value.equals(metadata.properties().get(key))) {
        throw new ForbiddenException("Table %s belongs to a repo: its property %s stays %s (an "
            + "older tag may still pin files Iceberg's cleanup would delete; the repo's garbage "
            + "collection reclaims space instead)", table, key, value);
      }
    });
  }
}
