package io.floe.adapters.icechunk.gc;

import io.floe.adapters.icechunk.engine.RepoObjects;
import java.time.Instant;

/**
 * An object stored under a repository's prefix: its key relative to the prefix (as
 * {@code snapshots/<id>}), what it is by its place in the layout, its size and last write.
 */
public record StoredRepoObject(String key, Kind kind, long sizeBytes, Instant lastModified) {

  public enum Kind {
    SNAPSHOT, MANIFEST, CHUNK, TRANSACTION_LOG,
    /** The repo info file ({@code repo}), the only mutable object of spec 2. */
    REPO_INFO,
    /** A copy of an earlier repo info file under {@code overwritten/}. */
    REPO_INFO_BACKUP,
    /** A spec-1 ref file under {@code refs/}. */
    REF,
    /** Anything else under the prefix (another tool's file, the prefix owner's marker). */
    OTHER
  }

  static Kind kindOf(String key) {
    int slash = key.indexOf('/');
    String folder = slash < 0 ? "" : key.substring(0, slash);
    if (slash < 0) {
      return key.equals(RepoObjects.REPO_FILE) ? Kind.REPO_INFO : Kind.OTHER;
    }
    if (key.indexOf('/', slash + 1) >= 0 && !folder.equals(RepoObjects.REFS_V1)) {
      return Kind.OTHER;
    }
    return switch (folder) {
      case RepoObjects.SNAPSHOTS -> Kind.SNAPSHOT;
      case RepoObjects.MANIFESTS -> Kind.MANIFEST;
      case RepoObjects.CHUNKS -> Kind.CHUNK;
      case RepoObjects.TRANSACTIONS -> Kind.TRANSACTION_LOG;
      case RepoObjects.OVERWRITTEN -> Kind.REPO_INFO_BACKUP;
      case RepoObjects.REFS_V1 -> Kind.REF;
      default -> Kind.OTHER;
    };
  }
}
