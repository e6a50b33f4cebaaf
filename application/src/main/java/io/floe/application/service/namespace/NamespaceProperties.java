package io.floe.application.service.namespace;

import io.floe.domain.BucketConfig;
import io.floe.domain.Namespace;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The properties a namespace answers engines with: what engines set, plus its real location,
 * which the server owns. Engines read {@value Namespace#LOCATION_PROPERTY} to decide where a
 * table goes (Trino stages a create only when the namespace reports one), so a location a client
 * chose would be a lie: Floe places every table under the namespace's own prefix. Every path by
 * which properties reach storage (creation through either API, property updates) passes
 * {@link #requireSettable}.
 */
public final class NamespaceProperties {
  private NamespaceProperties() {}

  /** Refuses a change that names a property the server owns. */
  public static void requireSettable(Collection<String> names) {
    if (names.contains(Namespace.LOCATION_PROPERTY)) {
      throw new BadRequestException("The namespace property '%s' is read-only: Floe chooses "
          + "every namespace's location (it answers the real one when the namespace is loaded); "
          + "create the namespace without it", Namespace.LOCATION_PROPERTY);
    }
  }

  /** What a load answers: the stored properties and the namespace's real location. */
  public static Map<String, String> answered(Namespace namespace, BucketConfig bucket) {
    // Iceberg's builders probe for null values, which immutable maps refuse to answer.
    Map<String, String> properties = new HashMap<>(namespace.properties());
    properties.put(Namespace.LOCATION_PROPERTY, bucket.uriOf(namespace.prefix()));
    return properties;
  }
}
