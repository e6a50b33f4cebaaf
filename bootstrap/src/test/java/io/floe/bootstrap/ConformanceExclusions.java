package io.floe.bootstrap;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one list of Iceberg conformance tests Floe does not run, each with its reason. It applies to
 * every runner of the suites: {@code CatalogTests} and {@code ViewCatalogTests} through Floe's own
 * subclasses and through the REST Compatibility Kit. docs/catalog.md lists the same exclusions.
 */
public final class ConformanceExclusions implements ExecutionCondition {
  private static final String CLIENT_CHOSEN_LOCATION = "the test writes files at a location the "
      + "client chose; Floe picks every location and refuses commits pointing outside a table's "
      + "own prefix";
  private static final String NO_SERVER_TABLE_DEFAULTS = "the test expects the catalog to apply "
      + "client-side table-default/table-override properties; Floe has no server-side defaults";
  private static final String NO_SERVER_VIEW_DEFAULTS = "the test expects the catalog to apply "
      + "client-side view-default/view-override properties; Floe has no server-side defaults";

  /** Keyed by the suite class that declares the test and the test's method name. */
  private static final Map<String, String> EXCLUDED = Map.ofEntries(
      Map.entry("CatalogTests#testCompleteReplaceTransaction", CLIENT_CHOSEN_LOCATION),
      Map.entry("CatalogTests#testCompleteCreateOrReplaceTransactionReplace",
          CLIENT_CHOSEN_LOCATION),
      Map.entry("ViewCatalogTests#createViewWithCustomMetadataLocation", CLIENT_CHOSEN_LOCATION),
      Map.entry("CatalogTests#testLoadTableWithMissingMetadataFile", "the test deletes a "
          + "metadata file behind the catalog's back; metadata files are immutable and Floe "
          + "caches them by location"),
      Map.entry("CatalogTests#testDefaultTableProperties", NO_SERVER_TABLE_DEFAULTS),
      Map.entry("CatalogTests#testDefaultTablePropertiesCreateTransaction",
          NO_SERVER_TABLE_DEFAULTS),
      Map.entry("CatalogTests#testDefaultTablePropertiesReplaceTransaction",
          NO_SERVER_TABLE_DEFAULTS),
      Map.entry("CatalogTests#testOverrideTableProperties", NO_SERVER_TABLE_DEFAULTS),
      Map.entry("CatalogTests#testOverrideTablePropertiesCreateTransaction",
          NO_SERVER_TABLE_DEFAULTS),
      Map.entry("CatalogTests#testOverrideTablePropertiesReplaceTransaction",
          NO_SERVER_TABLE_DEFAULTS),
      Map.entry("ViewCatalogTests#defaultViewProperties", NO_SERVER_VIEW_DEFAULTS),
      Map.entry("ViewCatalogTests#overrideViewProperties", NO_SERVER_VIEW_DEFAULTS));

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<Method> method = context.getTestMethod();
    if (method.isEmpty()) {
      return ConditionEvaluationResult.enabled("not a test method");
    }
    String key = method.get().getDeclaringClass().getSimpleName() + "#" + method.get().getName();
    String reason = EXCLUDED.get(key);
    return reason == null
        ? ConditionEvaluationResult.enabled("conformance test Floe runs")
        : ConditionEvaluationResult.disabled("Excluded from Floe's conformance run: " + reason);
  }

}
