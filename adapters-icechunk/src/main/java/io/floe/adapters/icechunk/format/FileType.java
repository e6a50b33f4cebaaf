package io.floe.adapters.icechunk.format;

/** The file-type byte of the binary header. */
public enum FileType {
  SNAPSHOT(1),
  MANIFEST(2),
  TRANSACTION_LOG(4),
  REPO_INFO(6);

  private final int code;

  FileType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static FileType ofCode(int code) {
    for (FileType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
