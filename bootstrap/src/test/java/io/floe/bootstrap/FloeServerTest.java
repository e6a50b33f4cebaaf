package io.floe.bootstrap;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class on a real Floe server shared by every such class of the test run: a parameter of
 * type {@link TestFloe} (of a {@code @BeforeAll}, {@code @BeforeEach} or test method) receives
 * it. The server is started once per test JVM and stopped when the run ends, so a test must leave
 * it as it found it for the others: it works in orgs of its own ({@link TestFloe#newOrg()}),
 * never closes the server, and moves its clock only forward and only by little. A test that needs
 * other settings, a restart or a crash starts a server of its own with {@link TestFloe#start}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(FloeServerExtension.class)
@interface FloeServerTest {
  /**
   * Whether deleted namespaces and repos keep their names for the default recovery period of
   * seven days, so that they can be restored; by default they free their names at once, as
   * Iceberg's conformance suites expect. Each of the two is a shared server of its own.
   */
  boolean recoverable() default false;
}
