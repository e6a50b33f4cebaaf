package io.floe.adapters.icechunk.engine;

/** Canonical Icechunk node paths: absolute, '/'-separated, no trailing '/', root is "/". */
final class NodePaths {
  private NodePaths() {}

  static String canonical(String path) {
    if (path == null) {
      throw new IllegalArgumentException("a node path must not be null");
    }
    String p = path.strip();
    while (p.endsWith("/") && p.length() > 1) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.startsWith("/")) {
      p = "/" + p;
    }
    for (String segment : p.substring(1).split("/", -1)) {
      if (p.length() > 1 && (segment.isEmpty() || segment.equals(".") || segment.equals(".."))) {
        throw new IllegalArgumentException("invalid node path '" + path
            + "': empty, '.' or '..' segment");
      }
    }
    return p;
  }

  /** Whether {@code path} is {@code ancestor} or lies below it. */
  static boolean isWithin(String path, String ancestor) {
    return ancestor.equals("/") || path.equals(ancestor) || path.startsWith(ancestor + "/");
  }

  static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? "/" : path.substring(0, i);
  }
}
