package io.floe.domain;

/** Who may read a namespace without a grant: nobody, or every authenticated principal. */
public enum Visibility {
  PRIVATE,
  AUTHENTICATED_PUBLIC
}
