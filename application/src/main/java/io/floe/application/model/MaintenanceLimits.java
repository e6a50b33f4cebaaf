package io.floe.application.model;

/** The bounds of maintenance settings, whether asked for by hand or set in a policy. */
public final class MaintenanceLimits {
  public static final long MIN_TARGET_FILE_SIZE = 1024L * 1024;
  public static final long MAX_TARGET_FILE_SIZE = 16L * 1024 * 1024 * 1024;
  public static final int MIN_INPUT_FILES = 2;
  public static final int MAX_MIN_INPUT_FILES = 100_000;
  public static final int MAX_RETAIN_LAST = 100_000;
  public static final int MAX_MANIFEST_THRESHOLD = 100_000;

  private MaintenanceLimits() {}
}
