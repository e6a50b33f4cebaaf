package io.floe.application.health;

/**
 * The one error the server does not live through: an {@link OutOfMemoryError}. When the heap ran
 * out, any thread may have stopped in the middle of its work, so the process ends at once (as
 * {@code -XX:+ExitOnOutOfMemoryError}, with which {@code floe serve} runs the JVM, makes it do for
 * every thread) and is started again by whatever supervises it, rather than serve half-working.
 */
public final class FatalErrors {
  /** The exit status of a process ended by an {@link OutOfMemoryError}, as the JVM's own. */
  public static final int OUT_OF_MEMORY = 3;

  private FatalErrors() {}

  /** Ends the process if {@code failure} is an {@link OutOfMemoryError}; returns otherwise. */
  public static void endProcessIfFatal(Throwable failure) {
    if (failure instanceof OutOfMemoryError) {
      // No logging framework: it may need memory there is none of.
      System.err.println("Terminating due to java.lang.OutOfMemoryError: " + failure.getMessage());
      Runtime.getRuntime().halt(OUT_OF_MEMORY);
    }
  }
}
