package io.floe.adapters.rest.management;

/**
 * Whose words a management response uses where Floe's and the arraylake client's differ. The
 * client asks for its own by accepting {@value #ARRAYLAKE_MEDIA_TYPE}, as it does on every
 * request; everyone else gets Floe's.
 */
public enum Vocabulary {
  FLOE, ARRAYLAKE;

  /** The media type of Earthmover's API, which the arraylake client accepts. */
  public static final String ARRAYLAKE_MEDIA_TYPE = "application/vnd.earthmover+json";

  /** The vocabulary an {@code Accept} header asks for. */
  static Vocabulary accepting(String accept) {
    return accept != null && accept.contains(ARRAYLAKE_MEDIA_TYPE) ? ARRAYLAKE : FLOE;
  }
}
