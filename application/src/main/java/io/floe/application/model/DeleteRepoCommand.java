package io.floe.application.model;

/**
 * How to delete a repo, with the namespaces' semantics. By default a soft delete: restorable, its
 * name and prefix held, for the recovery period. {@code immediate} gives up the name now and
 * queues the storage cleanup; {@code retainData} makes the cleanup remove only the catalog entry
 * and leave the repository's files.
 */
public record DeleteRepoCommand(boolean immediate, boolean retainData) {
  public static final DeleteRepoCommand SOFT = new DeleteRepoCommand(false, false);
}
