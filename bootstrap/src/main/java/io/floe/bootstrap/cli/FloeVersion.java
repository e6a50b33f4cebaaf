package io.floe.bootstrap.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * Which build this is, as {@code floe --version} prints it: the version, the git commit and the
 * build time, which the build writes into {@code build.properties} next to this class. A build
 * outside a git checkout has no commit; a class run without the build's resources (an IDE) is a
 * development build.
 */
public final class FloeVersion implements CommandLine.IVersionProvider {
  private static final String UNKNOWN = "unknown";
  private static final Build BUILD = Build.load();

  /** What the build recorded; a value the build could not fill in is "unknown". */
  public record Build(String version, String commit, String builtAt) {
    static Build load() {
      Properties properties = new Properties();
      try (InputStream in = FloeVersion.class.getResourceAsStream("build.properties")) {
        if (in != null) {
          properties.load(in);
        }
      } catch (IOException e) {
        // Unreadable build information is no reason not to run: it is reported as unknown.
      }
      return new Build(value(properties, "version", "development build"),
          value(properties, "commit", UNKNOWN), value(properties, "built", UNKNOWN));
    }

    /** A property, unless missing, empty, or a placeholder the build left unresolved. */
    private static String value(Properties properties, String key, String fallback) {
      String raw = properties.getProperty(key);
      return raw == null || raw.isBlank() || raw.contains("${") ? fallback : raw.strip();
    }

    /** One line: {@code 0.1.0 (commit 1a2b3c4, built 2026-01-02T03:04:05Z)}. */
    public String describe() {
      return version + " (commit " + commit + ", built " + builtAt + ")";
    }
  }

  public static Build build() {
    return BUILD;
  }

  @Override
  public String[] getVersion() {
    return new String[] {
        "floe " + BUILD.version(),
        "commit " + BUILD.commit(), "built " + BUILD.builtAt()};
  }
}
