package io.floe.application.model;

/**
 * How to delete a namespace or a repo. By default a soft delete: restorable, its name and prefix
 * held, for the recovery period. {@code immediate} gives up the name now and queues the storage
 * cleanup; {@code retainData} makes the cleanup remove only the catalog entry and leave the bytes.
 */
public record DeleteCommand(boolean immediate, boolean retainData) {
  public static final DeleteCommand SOFT = new DeleteCommand(false, false);
}
