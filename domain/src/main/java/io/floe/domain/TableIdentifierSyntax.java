package io.floe.domain;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code NAMESPACE.TABLE}, as the command line and the web app write it (and the arraylake CLI):
 * each component is {@code [A-Za-z0-9_-]+}, or double-quoted with {@code ""} standing for one
 * quote, so names with dots or other characters can be written exactly. One rule for both, so
 * that what the web app's copy button gives the command line reads back.
 */
public record TableIdentifierSyntax(String namespace, String table) {
  private static final String COMPONENT = "([A-Za-z0-9_-]+|\"(?:[^\"]|\"\")+\")";
  private static final Pattern IDENTIFIER = Pattern.compile(COMPONENT + "\\." + COMPONENT);
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");

  public static TableIdentifierSyntax parse(String text) {
    Matcher matcher = IDENTIFIER.matcher(text);
    if (!matcher.matches()) {
      throw new DomainException("expected NAMESPACE.TABLE, got '" + text
          + "'; double-quote names with dots or other characters, e.g. '\"ns.v2\".table'");
    }
    return new TableIdentifierSyntax(unquote(matcher.group(1)), unquote(matcher.group(2)));
  }

  /** The identifier in the same syntax: quoted only where a component needs it. */
  public String format() {
    return quote(namespace) + "." + quote(table);
  }

  private static String unquote(String component) {
    return component.startsWith("\"")
        ? component.substring(1, component.length() - 1).replace("\"\"", "\"") : component;
  }

  private static String quote(String name) {
    return PLAIN.matcher(name).matches() ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
