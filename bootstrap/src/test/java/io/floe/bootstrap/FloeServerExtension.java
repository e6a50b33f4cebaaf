package io.floe.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Hands the classes marked {@link FloeServerTest} the server they share. Each kind of shared
 * server starts when the first test asks for it and lives in the root store of the test run,
 * which stops it and removes its directory when the run ends.
 */
final class FloeServerExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(FloeServerExtension.class);
  /**
   * The cleanup pass does not run on its own while tests share the server: what one test deleted
   * is not purged under another one's feet, and a test that judges every row it stored sees only
   * what requests changed. Tests run the pass through its route.
   */
  private static final Duration NO_SCHEDULED_CLEANUP = Duration.ofDays(1);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestFloe.class;
  }

  @Override
  public TestFloe resolveParameter(ParameterContext parameter, ExtensionContext context) {
    boolean recoverable = AnnotationSupport.findAnnotation(context.getRequiredTestClass(),
        FloeServerTest.class).map(FloeServerTest::recoverable).orElse(false);
    String kind = recoverable ? "recoverable" : "names-freed-at-once";
    return context.getRoot().getStore(SHARED)
        .getOrComputeIfAbsent(kind, key -> SharedServer.start(key, recoverable),
            SharedServer.class)
        .floe();
  }

  /** A shared server and the temporary directory it keeps its data and buckets in. */
  record SharedServer(TestFloe floe, Path directory) implements AutoCloseable {
    static SharedServer start(String kind, boolean recoverable) {
      Path directory;
      try {
        directory = Files.createTempDirectory("floe-shared-" + kind);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      TestFloe floe = TestFloe.start(directory, settings -> {
        settings.firstCleanupAfter(NO_SCHEDULED_CLEANUP);
        return recoverable
            ? settings.namespaceRecoveryPeriod(ServerSettings.defaults(directory)
                .namespaceRecoveryPeriod())
            : settings;
      });
      return new SharedServer(floe, directory);
    }

    @Override
    public void close() throws IOException {
      try {
        floe.close();
      } finally {
        try (Stream<Path> paths = Files.walk(directory)) {
          for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(path);
          }
        }
      }
    }
  }
}
