package io.floe.domain;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A location as a client sent it (a table location, a {@code write.*.path} property, a manifest
 * list, a statistics file), parsed once into scheme, authority (the bucket) and path.
 *
 * <p>Only locations that are already canonical are accepted: what the server compares is exactly
 * what a file layer will open, whatever that layer decodes or normalizes. So a location is
 * refused when percent-decoding, Unicode compatibility normalization (NFKC) or the resolution of
 * {@code .}, {@code ..} and empty segments would change it, and when it carries anything a URI
 * layer reads as something other than a path: {@code \}, {@code ?}, {@code #}, {@code ;}, user
 * information, a port, an upper-case scheme, control, format or unassigned characters, or white
 * space. Paths are then compared segment-wise ({@link #isWithin}).
 *
 * <p>Spellings: {@code scheme://authority/path} for object stores; for local files
 * {@code file:///path}, and the equivalent {@code file:/path} (Hadoop's) and {@code /path}. One
 * trailing {@code /} (a directory) is accepted and not part of the path.
 */
public record CanonicalLocation(String scheme, String authority, StoragePath path) {
  /** Longer locations are refused: no real one comes near it. */
  public static final int MAX_LENGTH = 4096;

  public static final String FILE_SCHEME = "file";

  /** How much of a refused location a message repeats. */
  private static final int MESSAGE_LENGTH = 512;

  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");
  private static final Pattern AUTHORITY = Pattern.compile("[A-Za-z0-9._-]+");
  /** ASCII that a URI path may hold unencoded (RFC 3986 pchar and '/'), less ';'. */
  private static final boolean[] PATH_ASCII = new boolean[128];

  static {
    for (char c : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~!$&'()*+,=:@/-"
        .toCharArray()) {
      PATH_ASCII[c] = true;
    }
  }

  public CanonicalLocation {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(authority, "authority");
    Objects.requireNonNull(path, "path");
    if (!SCHEME.matcher(scheme).matches()) {
      throw new NonCanonicalLocationException("invalid scheme '" + Names.printable(scheme) + "'");
    }
    if (scheme.equals(FILE_SCHEME) ? !authority.isEmpty()
        : !AUTHORITY.matcher(authority).matches()) {
      throw new NonCanonicalLocationException(
          "invalid authority '" + Names.printable(authority) + "' for scheme " + scheme);
    }
  }

  /**
   * Parses {@code raw}, refusing anything not already in canonical form.
   *
   * @throws NonCanonicalLocationException saying what is wrong with it
   */
  public static CanonicalLocation parse(String raw) {
    if (raw == null || raw.isEmpty()) {
      throw new NonCanonicalLocationException("a location must not be empty");
    }
    if (raw.length() > MAX_LENGTH) {
      throw new NonCanonicalLocationException(
          "a location must not be longer than " + MAX_LENGTH + " characters");
    }
    requireCanonicalCharacters(raw);
    if (raw.startsWith("/")) {
      return new CanonicalLocation(FILE_SCHEME, "", pathOf(raw, raw.substring(1)));
    }
    int colon = raw.indexOf(':');
    if (colon <= 0) {
      throw refused(raw, "it has no scheme (such as s3://, gs:// or file:///)");
    }
    String scheme = raw.substring(0, colon);
    if (!SCHEME.matcher(scheme).matches()) {
      throw refused(raw, "its scheme must be lower-case letters, digits, '+', '-' or '.'");
    }
    String rest = raw.substring(colon + 1);
    if (scheme.equals(FILE_SCHEME)) {
      return parseFile(raw, rest);
    }
    if (!rest.startsWith("//")) {
      throw refused(raw, "it must have the form " + scheme + "://bucket/path");
    }
    String afterSlashes = rest.substring(2);
    int slash = afterSlashes.indexOf('/');
    String authority = slash < 0 ? afterSlashes : afterSlashes.substring(0, slash);
    requireAuthority(raw, authority);
    String path = slash < 0 ? "" : afterSlashes.substring(slash + 1);
    return new CanonicalLocation(scheme, authority, pathOf(raw, path));
  }

  /** {@code file:///p} and {@code file:/p}; a host ({@code file://host/p}) is refused. */
  private static CanonicalLocation parseFile(String raw, String rest) {
    String absolute;
    if (rest.startsWith("///")) {
      absolute = rest.substring(3);
    } else if (rest.startsWith("//")) {
      throw refused(raw, "a file location must not name a host or port (use file:///path)");
    } else if (rest.startsWith("/")) {
      absolute = rest.substring(1);
    } else {
      throw refused(raw, "a file location must be absolute (file:///path)");
    }
    if (absolute.isEmpty()) {
      return new CanonicalLocation(FILE_SCHEME, "", StoragePath.root());
    }
    return new CanonicalLocation(FILE_SCHEME, "", pathOf(raw, absolute));
  }

  private static void requireAuthority(String raw, String authority) {
    if (authority.isEmpty()) {
      throw refused(raw, "it names no bucket");
    }
    if (authority.contains("@")) {
      throw refused(raw, "it carries user information ('@')");
    }
    if (authority.contains(":")) {
      throw refused(raw, "it names a port");
    }
    if (!AUTHORITY.matcher(authority).matches()) {
      throw refused(raw, "its bucket may hold only letters, digits, '.', '-' and '_'");
    }
  }

  /**
   * The segments of a path, each checked; one trailing '/' is dropped. Anything that resolution
   * of '.', '..' or empty segments would change is refused, as is a trailing '.' (some
   * filesystems and gateways drop it, so {@code a.} and {@code a} would be one file there).
   */
  private static StoragePath pathOf(String raw, String path) {
    if (path.isEmpty()) {
      return StoragePath.root();
    }
    String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    List<String> segments = new ArrayList<>();
    for (String segment : trimmed.split("/", -1)) {
      if (segment.isEmpty()) {
        throw refused(raw, "it has an empty segment ('//')");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw refused(raw, "it has a '" + segment + "' segment");
      }
      if (segment.endsWith(".")) {
        throw refused(raw, "a segment ends with '.'");
      }
      segments.add(segment);
    }
    return new StoragePath(String.join("/", segments));
  }

  /**
   * Refuses what a URI layer would decode, cut off or read as syntax, and what Unicode
   * normalization would turn into something else (a full-width '．' into '.', say).
   */
  private static void requireCanonicalCharacters(String raw) {
    raw.codePoints().forEach(cp -> {
      if (cp < 0x80) {
        if (!PATH_ASCII[cp]) {
          throw refused(raw, describe(cp));
        }
        return;
      }
      int type = Character.getType(cp);
      if (Character.isISOControl(cp) || Character.isWhitespace(cp) || Character.isSpaceChar(cp)
          || type == Character.FORMAT || type == Character.SURROGATE
          || type == Character.PRIVATE_USE || type == Character.UNASSIGNED) {
        throw refused(raw, String.format("it contains the character U+%04X", cp));
      }
    });
    if (!Normalizer.normalize(raw, Normalizer.Form.NFKC).equals(raw)) {
      throw refused(raw, "Unicode normalization (NFKC) would change it; characters such as "
          + "full-width dots or slashes stand in for '.' and '/'");
    }
  }

  private static String describe(int cp) {
    return switch (cp) {
      case '%' -> "it is percent-encoded; send the location unencoded";
      case '\\' -> "it contains a backslash";
      case '?' -> "it contains a query ('?')";
      case '#' -> "it contains a fragment ('#')";
      case ';' -> "it contains parameters (';')";
      case ' ' -> "it contains a space";
      default -> Character.isISOControl(cp)
          ? String.format("it contains the control character U+%04X", cp)
          : "it contains the character '" + (char) cp + "'";
    };
  }

  private static NonCanonicalLocationException refused(String raw, String reason) {
    return new NonCanonicalLocationException("'" + Names.printable(raw, MESSAGE_LENGTH)
        + "' is not a canonical location: " + reason);
  }

  /** True when this location is {@code other} or lies beneath it, segment-wise. */
  public boolean isWithin(CanonicalLocation other) {
    return scheme.equals(other.scheme) && authority.equals(other.authority)
        && path.isWithin(other.path);
  }

  /** The canonical spelling: {@code scheme://authority/path}, {@code file:///path} for files. */
  @Override
  public String toString() {
    return scheme + "://" + authority + (path.isRoot() ? "" : "/" + path.value());
  }
}
