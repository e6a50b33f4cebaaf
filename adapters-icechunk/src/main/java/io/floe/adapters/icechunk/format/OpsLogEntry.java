package io.floe.adapters.icechunk.format;

/**
 * One entry of the repo file's ops log. Which fields are set depends on {@link Kind}: {@code
 * name} holds the tag or branch name (the branch for commits), snapshot ids the previous/new
 * target; {@code backupPath} names the copy of the repo file as this update left it, under
 * {@code overwritten/} (set once a later update has replaced that file).
 */
public record OpsLogEntry(Kind kind, long updatedAtMicros, String backupPath, String name,
    ObjectId12 previousSnapId, ObjectId12 newSnapId, int fromVersion, int toVersion,
    RepoInfo.Status status, int flagId, boolean flagValue, boolean flagIsSet) {

  /** The update union's members, by their union type code. */
  public enum Kind {
    REPO_INITIALIZED(1), REPO_MIGRATED(2), CONFIG_CHANGED(3), METADATA_CHANGED(4),
    TAG_CREATED(5), TAG_DELETED(6), BRANCH_CREATED(7), BRANCH_DELETED(8), BRANCH_RESET(9),
    NEW_COMMIT(10), COMMIT_AMENDED(11), NEW_DETACHED_SNAPSHOT(12), GC_RAN(13),
    EXPIRATION_RAN(14), FEATURE_FLAG_CHANGED(15), REPO_STATUS_CHANGED(16);

    private final int code;

    Kind(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }

    public static Kind ofCode(int code) {
      for (Kind k : values()) {
        if (k.code == code) {
          return k;
        }
      }
      return null;
    }
  }

  public static OpsLogEntry simple(Kind kind, long at) {
    return new OpsLogEntry(kind, at, null, null, null, null, 0, 0, null, 0, false, false);
  }

  public static OpsLogEntry named(Kind kind, long at, String name, ObjectId12 previous,
      ObjectId12 next) {
    return new OpsLogEntry(kind, at, null, name, previous, next, 0, 0, null, 0, false, false);
  }

  public OpsLogEntry withBackupPath(String path) {
    return new OpsLogEntry(kind, updatedAtMicros, path, name, previousSnapId, newSnapId,
        fromVersion, toVersion, status, flagId, flagValue, flagIsSet);
  }
}
