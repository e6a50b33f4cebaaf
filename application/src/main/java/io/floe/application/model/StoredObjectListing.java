package io.floe.application.model;

import java.util.List;
import java.util.Optional;

/**
 * One page of a listing in key order: the objects, the common prefixes a delimiter folded them
 * into, and the key to continue after when there is more.
 */
public record StoredObjectListing(List<StoredObjectInfo> objects, List<String> commonPrefixes,
    Optional<String> continueAfter) {
  public StoredObjectListing {
    objects = List.copyOf(objects);
    commonPrefixes = List.copyOf(commonPrefixes);
  }
}
