package io.floe.adapters.rest.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where the web app's pages live: under {@value #ROOT}, beside the APIs, and an org's pages under
 * {@value #ORGS}, so that no org, namespace or table name can ever shadow a route of the APIs or
 * of the web app itself (sign-in, assets).
 */
public final class WebPaths {
  public static final String ROOT = "/ui";
  public static final String SIGN_IN = ROOT + "/sign-in";
  public static final String ASSETS = ROOT + "/assets";
  public static final String ORGS = ROOT + "/orgs";

  private WebPaths() {}

  /** Whether a request path belongs to the web app (and gets its errors as HTML pages). */
  public static boolean isWebPath(String path) {
    return path.equals(ROOT) || path.startsWith(ROOT + "/");
  }

  public static String org(String org) {
    return ORGS + "/" + segment(org);
  }

  public static String namespace(String org, String namespace) {
    return org(org) + "/namespaces/" + segment(namespace);
  }

  public static String table(String org, String namespace, String table) {
    return namespace(org, namespace) + "/tables/" + segment(table);
  }

  public static String repo(String org, String repo) {
    return org(org) + "/repos/" + segment(repo);
  }

  public static String admin(String org, String section) {
    return org(org) + "/admin/" + section;
  }

  /** One path segment, percent-encoded so that any name (dots, slashes, quotes) round-trips. */
  public static String segment(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A query parameter value. */
  public static String query(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /**
   * A place to return to after signing in: only a path of this web app, never another site
   * (an open redirect would let a link to Floe's sign-in send people anywhere).
   */
  public static String safeReturnPath(String candidate) {
    if (candidate == null || !candidate.startsWith(ROOT + "/") || candidate.startsWith("//")
        || candidate.contains("\\") || candidate.chars().anyMatch(c -> c < 0x20)) {
      return "/";
    }
    return candidate;
  }
}
