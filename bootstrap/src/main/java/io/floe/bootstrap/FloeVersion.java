package io.floe.bootstrap;

import picocli.CommandLine;

/** The version printed by {@code floe --version}, from the jar's manifest when there is one. */
final class FloeVersion implements CommandLine.IVersionProvider {
  /** One line for the server's own description of itself. */
  static String describe() {
    String version = FloeVersion.class.getPackage().getImplementationVersion();
    return version == null ? "development build" : version;
  }

  @Override
  public String[] getVersion() {
    String version = FloeVersion.class.getPackage().getImplementationVersion();
    return new String[] {"floe " + (version == null ? "development build" : version)};
  }
}
