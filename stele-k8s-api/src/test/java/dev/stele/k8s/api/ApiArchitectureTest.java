package dev.stele.k8s.api;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The resource classes depend on the fabric8 model only: nothing of Stele's beyond this module, so
 * that any client of the API (the operator, the command line, a future server) can use them alone.
 */
class ApiArchitectureTest {
  private static final JavaClasses API =
      new ClassFileImporter()
          .withImportOption(location -> !location.contains("module-info"))
          .importUrl(Backup.class.getProtectionDomain().getCodeSource().getLocation());

  @Test
  void apiDependsOnNothingOfSteleOutsideIt() {
    noClasses()
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.stele..").and(resideOutsideOfPackage("dev.stele.k8s.api..")))
        .because("the API module is plain data on the fabric8 model")
        .check(API);
  }
}
