package io.floe.application.iceberg;

import java.util.Objects;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The one rule on table format versions, for creates (plain and staged, in plain and repo
 * namespaces), commits ({@code upgrade-format-version}, a {@code set-properties} of
 * {@code format-version}) and registered metadata files. iceberg-core 1.11 builds version 4
 * metadata, which the Iceberg spec does not define yet, so no engine could use such a table.
 */
final class FormatVersions {
  /** The last table format version the Iceberg spec defines. */
  static final int SPEC_MAX = 3;

  private FormatVersions() {}

  /** Refuses a limit that is no version the spec defines. */
  static void requireDefined(int max) {
    if (max < 1 || max > SPEC_MAX) {
      throw new IllegalArgumentException("the highest table format version must be between 1 "
          + "and " + SPEC_MAX + ", got " + max);
    }
  }

  /**
   * Refuses {@code after}, the metadata a change makes of {@code before} (null for a new or
   * registered table), when it raises the table's format version above {@code max} or sets its
   * {@code format-version} property above it. A table already beyond the limit (made before it
   * was lowered) keeps its version and takes commits: only a rise is refused.
   *
   * @throws BadRequestException naming {@code what} the metadata is
   */
  static void requireAllowed(int max, TableMetadata before, TableMetadata after, String what) {
    int version = after.formatVersion();
    if (version > max && (before == null || version > before.formatVersion())) {
      throw new BadRequestException("%s has table format version %s; this server accepts "
          + "format versions up to %s", capitalized(what), version, max);
    }
    String property = after.properties().get(TableProperties.FORMAT_VERSION);
    if (property == null || before != null
        && Objects.equals(property, before.properties().get(TableProperties.FORMAT_VERSION))) {
      return;
    }
    int requested;
    try {
      requested = Integer.parseInt(property.strip());
    } catch (NumberFormatException e) {
      throw new BadRequestException("%s sets the property '%s' to '%s', which is no format "
          + "version", capitalized(what), TableProperties.FORMAT_VERSION, property);
    }
    if (requested > max) {
      throw new BadRequestException("%s sets the property '%s' to %s; this server accepts "
          + "format versions up to %s", capitalized(what), TableProperties.FORMAT_VERSION,
          requested, max);
    }
  }

  private static String capitalized(String what) {
    return what.isEmpty() ? what : Character.toUpperCase(what.charAt(0)) + what.substring(1);
  }
}
