package io.floe.bootstrap.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void floeFollowsItsArchitecture() {
    JavaClasses floe = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.floe");
    assertThat(floe.containPackage("io.floe.domain")).isTrue();
    assertThat(floe.containPackage("io.floe.adapters.persistence")).isTrue();
    for (ArchRule rule : ArchitectureRules.forRoot("io.floe")) {
      rule.check(floe);
    }
  }

  @Test
  void aDeliberateViolationFailsWithAReadableMessage() {
    JavaClasses fixture = new ClassFileImporter().importPackages("io.floe.archfixture");
    var rules = ArchitectureRules.forRoot("io.floe.archfixture");

    assertThatThrownBy(() -> rules.get(0).check(fixture))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the domain is plain Java that any service can embed")
        .hasMessageContaining("LeakyEntity");
    assertThatThrownBy(() -> rules.get(2).check(fixture))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("adapters never call each other")
        .hasMessageContaining("ChattyController");
  }
}
