package io.floe.adapters.rest.web.view;

import java.util.List;
import java.util.Optional;

/**
 * What every page around its content shows: the title, who is signed in, the org and where in it
 * the page is, the form token, and a notice of what just happened or a problem with the last
 * form.
 */
public record Chrome(
    String title,
    Optional<String> userName,
    Optional<String> org,
    boolean orgAdmin,
    String csrfToken,
    List<Crumb> crumbs,
    Optional<String> notice,
    Optional<String> problem) {

  public Chrome {
    crumbs = List.copyOf(crumbs);
  }

  /** A page before sign-in: no user, no org. */
  public static Chrome anonymous(String title, String csrfToken, Optional<String> problem) {
    return new Chrome(title, Optional.empty(), Optional.empty(), false, csrfToken, List.of(),
        Optional.empty(), problem);
  }
}
