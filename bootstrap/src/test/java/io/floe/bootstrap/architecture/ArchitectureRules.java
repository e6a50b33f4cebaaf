package io.floe.bootstrap.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The architecture in one place: dependencies point inward. Parameterized by the root package so
 * the same rules run on Floe and on a small fixture that breaks them on purpose.
 */
public final class ArchitectureRules {
  private ArchitectureRules() {}

  public static List<ArchRule> forRoot(String root) {
    return List.of(
        classes().that().resideInAPackage(root + ".domain..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(root + ".domain..", "java..")
            .because("the domain is plain Java that any service can embed: it depends on nothing "
                + "but itself and the JDK"),
        noClasses().that().resideInAPackage(root + ".application..")
            .should().dependOnClassesThat()
            .resideInAnyPackage(root + ".adapters..", root + ".bootstrap..")
            .because("use cases speak the domain and their own ports; adapters plug into them, "
                + "never the other way round"),
        slices().matching(root + ".adapters.(*)..").should().notDependOnEachOther()
            .because("adapters never call each other: bootstrap wires them through ports"),
        noClasses().that().resideOutsideOfPackage(root + ".bootstrap..")
            .should().dependOnClassesThat().resideInAPackage(root + ".bootstrap..")
            .because("only bootstrap knows every module and wires them"));
  }
}
