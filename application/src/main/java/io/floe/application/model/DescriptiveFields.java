package io.floe.application.model;

import io.floe.domain.MetadataValue;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Limits on what people write about a namespace: the same as the arraylake client enforces for a
 * repo (a description of at most 255 characters, metadata of at most 4 KiB as JSON), so that what
 * one client accepts the server accepts too.
 */
public final class DescriptiveFields {
  public static final int MAX_DESCRIPTION_LENGTH = 255;
  public static final int MAX_METADATA_JSON_BYTES = 4 * 1024;

  private DescriptiveFields() {}

  public static void requireValidDescription(String description) {
    if (description.length() > MAX_DESCRIPTION_LENGTH) {
      throw Invalid.because("description is longer than " + MAX_DESCRIPTION_LENGTH
          + " characters (" + description.length() + ")");
    }
  }

  public static void requireValidMetadata(Map<String, MetadataValue> metadata) {
    long bytes = 2;
    for (Map.Entry<String, MetadataValue> entry : metadata.entrySet()) {
      if (entry.getKey().isBlank()) {
        throw Invalid.because("metadata keys must not be blank");
      }
      bytes += jsonBytes(entry.getKey()) + 2 + jsonBytes(entry.getValue()) + 2;
    }
    if (bytes > MAX_METADATA_JSON_BYTES) {
      throw Invalid.because("metadata can be at most 4kB as JSON");
    }
  }

  private static long jsonBytes(MetadataValue value) {
    if (value instanceof MetadataValue.Text text) {
      return jsonBytes(text.value());
    } else if (value instanceof MetadataValue.Number number) {
      return number.value().toString().length();
    } else if (value instanceof MetadataValue.Bool bool) {
      return bool.value() ? 4 : 5;
    } else if (value instanceof MetadataValue.ListOf list) {
      return 2 + list.values().stream().mapToLong(item -> jsonBytes(item) + 2).sum();
    }
    return 4;
  }

  private static long jsonBytes(String text) {
    long escapes = text.chars().filter(c -> c == '"' || c == '\\' || c < 0x20).count();
    return text.getBytes(StandardCharsets.UTF_8).length + 2 + 5 * escapes;
  }
}
