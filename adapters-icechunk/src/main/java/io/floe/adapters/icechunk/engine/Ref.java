package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ObjectId12;

/** What a read-only session is opened at: a branch tip, a tag, or a snapshot id. */
public record Ref(Kind kind, String name) {
  public enum Kind { BRANCH, TAG, SNAPSHOT }

  public static Ref branch(String name) {
    return new Ref(Kind.BRANCH, name);
  }

  public static Ref tag(String name) {
    return new Ref(Kind.TAG, name);
  }

  public static Ref snapshot(ObjectId12 id) {
    return new Ref(Kind.SNAPSHOT, id.toString());
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase() + " " + name;
  }
}
