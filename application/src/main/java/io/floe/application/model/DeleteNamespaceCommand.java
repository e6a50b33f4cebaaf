package io.floe.application.model;

/**
 * How to delete a namespace. By default a soft delete: restorable, its name and prefix held, for
 * the recovery period. {@code immediate} gives up the name now and queues the storage cleanup;
 * {@code retainData} makes the cleanup remove only the catalog entry and leave the bytes.
 */
public record DeleteNamespaceCommand(boolean immediate, boolean retainData) {
  public static final DeleteNamespaceCommand SOFT = new DeleteNamespaceCommand(false, false);
}
