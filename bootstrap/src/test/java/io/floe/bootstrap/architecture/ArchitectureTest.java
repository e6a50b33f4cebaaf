package io.floe.bootstrap.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArchitectureTest {
  private static final JavaClasses FIXTURE =
      new ClassFileImporter().importPackages("io.floe.archfixture");
  private static final List<ArchRule> FIXTURE_RULES =
      ArchitectureRules.forRoot("io.floe.archfixture");

  @Test
  void floeFollowsItsArchitecture() {
    JavaClasses floe = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // Test jars other modules publish for bootstrap's tests (their fake stores and servers)
        // are no part of the architecture; once packaged, Maven hands them over as jars, which
        // the predefined option (test-classes directories) does not recognize.
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("io.floe");
    assertThat(floe.containPackage("io.floe.domain")).isTrue();
    assertThat(floe.containPackage("io.floe.adapters.persistence")).isTrue();
    assertThat(floe.containPackage("io.floe.application.port.in")).isTrue();
    for (ArchRule rule : ArchitectureRules.forRoot("io.floe")) {
      rule.check(floe);
    }
  }

  /** Each group of packages that need each other is one violation; the fixture has three. */
  @Test
  void everyPackageCycleIsReportedWithTheDependenciesThatCloseIt() {
    List<String> cycles = FIXTURE_RULES.get(9).evaluate(FIXTURE).getFailureReport().getDetails();

    assertThat(cycles).hasSize(3);
    assertThat(cycles).anySatisfy(cycle -> assertThat(cycle)
        .startsWith("Cycle between adapters.persistence.cache, adapters.persistence.embedded, "
            + "adapters.persistence.jooq:")
        .contains("OrderCache", "ServerSupervisor", "OrderRows"));
    assertThat(cycles).anySatisfy(cycle -> assertThat(cycle)
        .startsWith("Cycle between adapters.rest, adapters.rest.orders:")
        .contains("adapters.rest -> adapters.rest.orders: Method <"
            + "io.floe.archfixture.adapters.rest.RestServer.start()>")
        .contains("adapters.rest.orders -> adapters.rest: Method <"
            + "io.floe.archfixture.adapters.rest.orders.OrderRoutes.count()>"));
    assertThat(cycles).anySatisfy(cycle -> assertThat(cycle)
        .startsWith("Cycle between application.port.in, application.port.out:"));
  }

  /** Each rule fails on the fixture class that breaks it, with the rule's reason in the message. */
  @ParameterizedTest(name = "rule {0} catches {2}")
  @CsvSource({
      "0, the domain is plain Java that any service can embed, LeakyEntity",
      "1, use cases speak the domain and their own ports, AuditService",
      "2, adapters never call each other, ChattyController",
      "4, in-ports say what the application offers, CancelOrderUseCase",
      "5, out-ports and the commands and results both kinds share never depend on in-ports, "
          + "SaveOrderPort",
      "6, adapters drive the application through its in-ports, OrderController",
      "7, pointers to metadata files move only through the catalog's one committer, "
          + "PlaceOrderService",
      "8, only the module's port package speaks the application's language, LeakyEngine",
      "9, dependencies between the packages of a module point one way, OrderRoutes",
      "10, the embedded PostgreSQL supervisor runs a server and says how to reach it, "
          + "ServerSupervisor",
      "11, the jOOQ adapters know no cache and no embedded server, OrderRows",
      "12, the caches wrap the jOOQ adapters on any PostgreSQL, OrderCache",
      "13, the persistence root package holds what jooq, cache and embedded share, "
          + "ConnectionSettings",
      "14, outbound messaging adapters are driven, ReplyingSender",
      "15, the Kafka client is a detail of outbound messaging, KafkaForwarder"})
  void aDeliberateViolationFailsWithAReadableMessage(int rule, String reason, String culprit) {
    assertThatThrownBy(() -> FIXTURE_RULES.get(rule).check(FIXTURE))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(reason)
        .hasMessageContaining(culprit);
  }
}
