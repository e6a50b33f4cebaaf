package io.floe.adapters.icechunk.format;

/** Icechunk on-disk format versions this implementation knows. */
public enum SpecVersion {
  /** Icechunk 0.2 to 1.x: refs/ files, parent id in the snapshot, MessagePack metadata. */
  V1(1),
  /** Icechunk 2.x: a single mutable repo info file, FlexBuffers metadata. */
  V2(2);

  private final int code;

  SpecVersion(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static SpecVersion ofCode(int code) {
    for (SpecVersion v : values()) {
      if (v.code == code) {
        return v;
      }
    }
    return null;
  }
}
