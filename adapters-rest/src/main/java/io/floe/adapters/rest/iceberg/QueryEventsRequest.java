package io.floe.adapters.rest.iceberg;

import io.floe.domain.StorableText;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.rest.RESTRequest;

/**
 * The body of {@code POST /v1/{prefix}/events} as the Iceberg REST events proposal names its
 * fields (kebab-case on the wire). Filters Floe cannot apply ({@code catalog-objects-by-id},
 * {@code custom-filters}) are refused rather than ignored: ignoring one would answer events the
 * reader did not ask for.
 */
final class QueryEventsRequest implements RESTRequest {
  static final int MAX_FILTER_ENTRIES = 100;
  static final int MAX_NAME_LENGTH = 1000;
  private static final long LATEST_MILLIS = Instant.parse("9999-12-31T23:59:59Z").toEpochMilli();

  private String continuationToken;
  private Integer pageSize;
  private Long afterTimestampMs;
  private List<String> operationTypes;
  private List<List<String>> catalogObjectsByName;
  private List<Object> catalogObjectsById;
  private List<String> objectTypes;
  private Map<String, Object> customFilters;

  String continuationToken() {
    return continuationToken;
  }

  Integer pageSize() {
    return pageSize;
  }

  Long afterTimestampMs() {
    return afterTimestampMs;
  }

  List<String> operationTypes() {
    return operationTypes == null ? List.of() : operationTypes;
  }

  List<List<String>> catalogObjectsByName() {
    return catalogObjectsByName == null ? List.of() : catalogObjectsByName;
  }

  List<String> objectTypes() {
    return objectTypes == null ? List.of() : objectTypes;
  }

  @Override
  public void validate() {
    check(catalogObjectsById == null || catalogObjectsById.isEmpty(),
        "catalog-objects-by-id is not supported; name the objects in catalog-objects-by-name");
    check(customFilters == null || customFilters.isEmpty(), "custom-filters are not supported");
    check(pageSize == null || pageSize >= 1, "page-size must be at least 1");
    check(afterTimestampMs == null || afterTimestampMs >= 0 && afterTimestampMs <= LATEST_MILLIS,
        "after-timestamp-ms must be a time in milliseconds since the epoch");
    bounded("operation-types", operationTypes);
    bounded("catalog-objects-by-name", catalogObjectsByName);
    bounded("object-types", objectTypes);
    for (String type : operationTypes()) {
      check(type != null && IcebergEventOperations.isKnown(type),
          "unknown operation type: use one of " + IcebergEventOperations.names());
    }
    for (String type : objectTypes()) {
      check(type != null && List.of("namespace", "table", "view").contains(type),
          "unknown object type: use namespace, table or view");
    }
    for (List<String> name : catalogObjectsByName()) {
      check(name != null && (name.size() == 1 || name.size() == 2),
          "a name in catalog-objects-by-name is a namespace [ns] or an object [ns, name]");
      for (String level : name) {
        check(level != null && !level.isEmpty() && level.length() <= MAX_NAME_LENGTH
            && StorableText.problem(level).isEmpty(), "a name in catalog-objects-by-name holds "
            + "1 to " + MAX_NAME_LENGTH + " characters of text");
      }
    }
  }

  private static void bounded(String field, List<?> values) {
    check(values == null || values.size() <= MAX_FILTER_ENTRIES,
        field + " holds at most " + MAX_FILTER_ENTRIES + " entries");
  }

  private static void check(boolean holds, String problem) {
    if (!holds) {
      throw new IllegalArgumentException(problem);
    }
  }
}
