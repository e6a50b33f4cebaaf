package io.floe.application.port.out;

import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * A version of a repo breaks the icechest convention where a write needs it: its commit declares
 * a table without a pointer, which a new commit would have to carry forward and must not guess.
 * The branch takes no commit through Floe until a writer repairs it: a conflict (409), never a
 * server error.
 */
public class MalformedRepoException extends CommitFailedException {
  public MalformedRepoException(String message) {
    super("%s", message);
  }
}
