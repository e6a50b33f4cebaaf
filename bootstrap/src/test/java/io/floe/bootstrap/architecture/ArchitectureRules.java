package io.floe.bootstrap.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The architecture in one place: dependencies point inward, ports never know each other,
 * adapters drive the application through in-ports, one committer moves metadata pointers, the
 * Icechunk engine knows nothing of the application, no two packages need each other, and
 * persistence's three parts (jooq, cache, embedded) depend on each other one way only, and
 * outbound messaging is driven and alone with the Kafka client.
 * Parameterized by the root package so the same rules run on Floe and on a small fixture that
 * breaks each of them on purpose.
 */
public final class ArchitectureRules {
  /** jOOQ's generated classes, whose packages refer to each other as the generator writes them. */
  private static final String GENERATED_SCHEMA = ".adapters.persistence.jooq.schema..";

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
            .because("only bootstrap knows every module and wires them"),
        noClasses().that().resideInAPackage(root + ".application.port.in..")
            .should().dependOnClassesThat().resideInAPackage(root + ".application.port.out..")
            .because("in-ports say what the application offers, out-ports what it needs: "
                + "neither knows the other, and what both use lives in application.model"),
        noClasses().that().resideInAnyPackage(root + ".application.port.out..",
                root + ".application.model..")
            .should().dependOnClassesThat().resideInAPackage(root + ".application.port.in..")
            .because("out-ports and the commands and results both kinds share never depend on "
                + "in-ports"),
        noClasses().that().resideInAPackage(root + ".adapters..")
            .should().dependOnClassesThat().resideInAPackage(root + ".application.service..")
            .because("adapters drive the application through its in-ports, never through the "
                + "services that implement them; bootstrap alone builds services"),
        noClasses().that().resideInAPackage(root + ".application..")
            .and().doNotHaveFullyQualifiedName(
                root + ".application.service.catalog.CatalogCommitter")
            .should().dependOnClassesThat().haveFullyQualifiedName(
                root + ".application.port.out.MetadataPointers")
            .because("pointers to metadata files move only through the catalog's one committer, "
                + "which plans, compare-and-swaps and retries"),
        noClasses().that().resideInAnyPackage(root + ".adapters.icechunk.engine..",
                root + ".adapters.icechunk.format..", root + ".adapters.icechunk.gc..")
            .should().dependOnClassesThat().resideInAPackage(root + ".application..")
            .because("Icechunk's engine, its file format and its garbage collection stand on "
                + "their own: only the module's port package speaks the application's language"),
        slices().matching(root + ".(**)").should(PackageCycles.absent()
                .ignoringDependenciesWithin(root + GENERATED_SCHEMA))
            .because("dependencies between the packages of a module point one way, so that each "
                + "package can be read, tested and changed knowing only those below it"),
        noClasses().that().resideInAPackage(root + ".adapters.persistence.embedded..")
            .should().dependOnClassesThat().resideInAnyPackage(
                root + ".adapters.persistence.jooq..", root + ".adapters.persistence.cache..")
            .because("the embedded PostgreSQL supervisor runs a server and says how to reach "
                + "it, nothing more (embedded -> persistence root only): it knows neither the "
                + "jOOQ adapters nor the caches, which run on whatever database bootstrap gives "
                + "them"),
        noClasses().that().resideInAPackage(root + ".adapters.persistence.jooq..")
            .should().dependOnClassesThat().resideInAnyPackage(
                root + ".adapters.persistence.cache..", root + ".adapters.persistence.embedded..")
            .because("the jOOQ adapters know no cache and no embedded server (jooq -> "
                + "persistence root only): the caches wrap them and hear of their writes through "
                + "CatalogObjectWrites (cache -> jooq), and they run on any PostgreSQL"),
        noClasses().that().resideInAPackage(root + ".adapters.persistence.cache..")
            .should().dependOnClassesThat().resideInAPackage(
                root + ".adapters.persistence.embedded..")
            .because("the caches wrap the jOOQ adapters on any PostgreSQL (cache -> jooq -> "
                + "persistence root) and know nothing of the embedded server"),
        noClasses().that().resideInAPackage(root + ".adapters.persistence")
            .should().dependOnClassesThat().resideInAnyPackage(
                root + ".adapters.persistence.jooq..", root + ".adapters.persistence.cache..",
                root + ".adapters.persistence.embedded..")
            .because("the persistence root package holds what jooq, cache and embedded share "
                + "(DatabaseSettings, SchemaMigrations), so it depends on none of them (each of "
                + "them -> persistence root)"),
        noClasses().that().resideInAPackage(root + ".adapters.messaging..")
            .should().dependOnClassesThat().resideInAPackage(root + ".application.port.in..")
            .because("outbound messaging adapters are driven: they implement the out-port that "
                + "delivers events (DeliveryChannel) and never call a use case"),
        noClasses().that().resideOutsideOfPackage(root + ".adapters.messaging..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("the Kafka client is a detail of outbound messaging: only "
                + "adapters-messaging speaks it, everything else sees a DeliveryChannel"));
  }
}
