package io.floe.domain;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a grant allows. Each level includes the ones before it: writing needs reading, managing
 * needs writing.
 */
public enum Action {
  /** List, load and scan. */
  READ,
  /** Create, commit to and drop tables. */
  WRITE,
  /** Grants, description, visibility, delete and restore. */
  MANAGE;

  /** This action and every action it includes. */
  public Set<Action> implied() {
    EnumSet<Action> out = EnumSet.noneOf(Action.class);
    for (Action action : values()) {
      if (action.ordinal() <= ordinal()) {
        out.add(action);
      }
    }
    return out;
  }
}
