package dev.stele.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.stele.testing.ArchitectureRules.mainClassesOf;
import static dev.stele.testing.ArchitectureRules.noCommandLine;
import static dev.stele.testing.ArchitectureRules.noTestSupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The server stands on the engine alone (and the API module's label names): never the operator, the
 * command line, or test support; so the CLI, the operator's image and a later web page can all
 * start it.
 */
class ServerArchitectureTest {
  private static final JavaClasses SERVER = mainClassesOf(RepositoryServer.class);

  @Test
  void theServerUsesNeitherTheOperatorNorTheCommandLineNorTestSupport() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.stele.operator..")
        .because("the server reads repositories; it runs nothing in the cluster")
        .check(SERVER);
    noCommandLine().check(SERVER);
    noTestSupport().check(SERVER);
  }
}
