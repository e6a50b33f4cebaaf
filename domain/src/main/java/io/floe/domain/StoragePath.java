package io.floe.domain;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * A key prefix inside a bucket, normalized: no leading or trailing '/', no empty, "." or ".."
 * segments, no backslash or control character, at most {@value #MAX_BYTES} bytes in UTF-8 (the
 * longest key S3 and GCS store). The empty path is the bucket's root.
 */
public record StoragePath(String value) {
  /** S3's and GCS's limit on an object key, in UTF-8 bytes. */
  public static final int MAX_BYTES = 1024;
  private static final Pattern SEGMENT = Pattern.compile("[^/\\\\\\p{Cntrl}]+");

  public StoragePath {
    if (value == null) {
      throw new DomainException("a storage path must not be null");
    }
    if (value.length() > MAX_BYTES / 3
        && value.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      throw new DomainException("invalid storage path '" + Names.printable(value, 64)
          + "...': a key is at most " + MAX_BYTES + " bytes in UTF-8, as in S3");
    }
    if (!value.isEmpty()) {
      for (String segment : value.split("/", -1)) {
        if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
          throw new DomainException("invalid storage path '" + Names.printable(value)
              + "': segments must be non-empty, not '.' or '..', without '\\' or control characters");
        }
      }
    }
  }

  public static StoragePath root() {
    return new StoragePath("");
  }

  /** Parses a user-supplied prefix, tolerating leading and trailing slashes. */
  public static StoragePath parse(String raw) {
    String trimmed = raw == null ? "" : raw.strip();
    while (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return new StoragePath(trimmed);
  }

  public StoragePath resolve(String segment) {
    new StoragePath(segment);
    return new StoragePath(value.isEmpty() ? segment : value + "/" + segment);
  }

  public boolean isRoot() {
    return value.isEmpty();
  }

  /** True when this path equals {@code other} or lies beneath it, segment-wise. */
  public boolean isWithin(StoragePath other) {
    return other.isRoot() || value.equals(other.value) || value.startsWith(other.value + "/");
  }

  /** Two prefixes overlap when one equals or contains the other. */
  public boolean overlaps(StoragePath other) {
    return isWithin(other) || other.isWithin(this);
  }

  @Override
  public String toString() {
    return value;
  }
}
