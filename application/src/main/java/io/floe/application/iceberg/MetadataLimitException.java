package io.floe.application.iceberg;

import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A schema or metadata file beyond {@link MetadataLimits}: the client's to change, a 400. What
 * broke the limit is named in lower case ("the request body", "metadata file '...'").
 */
public final class MetadataLimitException extends BadRequestException {
  private MetadataLimitException(String message) {
    super("%s", message);
  }

  static MetadataLimitException tooDeep(String what, int limit) {
    return new MetadataLimitException(capitalized(what) + " nests schema fields more than "
        + limit + " levels deep, the most this server accepts");
  }

  static MetadataLimitException tooManyFields(String what, int limit) {
    return new MetadataLimitException(capitalized(what) + " has a schema of more than " + limit
        + " fields (nested fields, list elements and map keys and values included), the most "
        + "this server accepts");
  }

  static MetadataLimitException namesTooLong(String what, long limit) {
    return new MetadataLimitException("The full names of the schema fields in " + what
        + " (such as 'a.b.element') add up to more than " + limit + " characters, the most this "
        + "server accepts");
  }

  static MetadataLimitException tooLarge(String what, long limit) {
    return new MetadataLimitException(capitalized(what) + " is larger than " + limit
        + " bytes, the most this server accepts for a metadata file");
  }

  private static String capitalized(String what) {
    return what.isEmpty() ? what : Character.toUpperCase(what.charAt(0)) + what.substring(1);
  }
}
