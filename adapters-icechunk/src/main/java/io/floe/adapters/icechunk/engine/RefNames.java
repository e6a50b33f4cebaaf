package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.RepoInfo;

/**
 * Reads a ref the way people write one: a branch name, else a tag name, else a snapshot id. Branch
 * and tag names may not look like snapshot ids in practice, but a branch still wins if one does.
 */
public final class RefNames {
  private RefNames() {}

  public static Ref resolve(IcechunkRepository repository, String ref) {
    RepoInfo info = repository.info();
    if (info.branches().containsKey(ref)) {
      return Ref.branch(ref);
    }
    if (info.tags().containsKey(ref)) {
      return Ref.tag(ref);
    }
    return new Ref(Ref.Kind.SNAPSHOT, ref);
  }
}
