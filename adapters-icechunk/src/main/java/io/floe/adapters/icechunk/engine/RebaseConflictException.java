package io.floe.adapters.icechunk.engine;

import java.util.List;

/**
 * Changes of this session and of commits that landed meanwhile touch the same thing; nothing was
 * resolved automatically. Each conflict names what collided.
 */
public class RebaseConflictException extends IcechunkException {
  private final List<Conflict> conflicts;

  /** One collision: its kind, the node path and, for chunks, the chunk index. */
  public record Conflict(Kind kind, String path, String detail) {
    public enum Kind {
      CHUNK_DOUBLE_UPDATE, NODE_METADATA_DOUBLE_UPDATE, NODE_CREATED_TWICE,
      UPDATED_NODE_DELETED, DELETED_NODE_UPDATED, NODE_MOVED, HISTORY_REWRITTEN
    }

    @Override
    public String toString() {
      return kind + " at " + path + (detail == null ? "" : " (" + detail + ")");
    }
  }

  public RebaseConflictException(String branch, List<Conflict> conflicts) {
    super("cannot rebase onto branch '" + branch + "': " + conflicts);
    this.conflicts = List.copyOf(conflicts);
  }

  public List<Conflict> conflicts() {
    return conflicts;
  }
}
