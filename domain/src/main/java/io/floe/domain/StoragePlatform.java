package io.floe.domain;

import java.util.Locale;

/** Where a bucket lives. Azure is stored for repos but cannot hold Iceberg data yet. */
public enum StoragePlatform {
  S3("s3"),
  S3_COMPATIBLE("s3-compatible"),
  GCS("gcs"),
  LOCAL("local"),
  AZURE("azure");

  private final String wireName;

  StoragePlatform(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public boolean supportsIceberg() {
    return this != AZURE;
  }

  public static StoragePlatform fromWireName(String name) {
    for (StoragePlatform platform : values()) {
      if (platform.wireName.equals(name == null ? null : name.toLowerCase(Locale.ROOT))) {
        return platform;
      }
    }
    throw new DomainException("unknown storage platform '" + Names.printable(name)
        + "': use one of s3, s3-compatible, gcs, local, azure");
  }
}
