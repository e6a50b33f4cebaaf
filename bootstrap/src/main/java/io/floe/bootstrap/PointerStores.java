package io.floe.bootstrap;

import io.floe.application.port.out.MetadataPointers;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The one pointer store the committer holds: each key goes to the store that keeps pointers of
 * its kind, a plain namespace's rows to PostgreSQL, a repo branch's tables to its Icechunk
 * history. One commit moves pointers of one kind.
 */
final class PointerStores implements MetadataPointers {
  private final MetadataPointers rows;
  private final MetadataPointers branches;

  PointerStores(MetadataPointers rows, MetadataPointers branches) {
    this.rows = rows;
    this.branches = branches;
  }

  @Override
  public Optional<String> current(Key key) {
    return storeOf(List.of(key)).current(key);
  }

  @Override
  public boolean swap(List<Move> moves, Instant now) {
    return moves.isEmpty()
        || storeOf(moves.stream().map(Move::key).toList()).swap(moves, now);
  }

  @Override
  public void lockForCommit(Collection<Key> keys) {
    if (!keys.isEmpty()) {
      storeOf(keys).lockForCommit(keys);
    }
  }

  private MetadataPointers storeOf(Collection<Key> keys) {
    boolean row = keys.iterator().next() instanceof Row;
    if (keys.stream().anyMatch(key -> key instanceof Row != row)) {
      throw new IllegalArgumentException("one commit moves pointers of one kind: " + keys);
    }
    return row ? rows : branches;
  }
}
