package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ObjectId12;

/**
 * Another commit moved the branch after this session started: the branch no longer points at the
 * session's parent snapshot. The session is intact; {@link WritableSession#rebase()} can move its
 * changes onto the new tip.
 */
public class CommitConflictException extends IcechunkException {
  private final String branch;
  private final ObjectId12 expectedParent;
  private final ObjectId12 actualParent;

  public CommitConflictException(String branch, ObjectId12 expectedParent, ObjectId12 actualParent) {
    super("commit conflict on branch '" + branch + "': expected its tip to be "
        + expectedParent + " (this session's parent) but it is " + actualParent);
    this.branch = branch;
    this.expectedParent = expectedParent;
    this.actualParent = actualParent;
  }

  public String branch() {
    return branch;
  }

  public ObjectId12 expectedParent() {
    return expectedParent;
  }

  /** The branch's tip now; null if the branch was deleted. */
  public ObjectId12 actualParent() {
    return actualParent;
  }
}
