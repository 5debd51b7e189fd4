package dev.stele.cli;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static dev.stele.testing.ArchitectureRules.mainClassesOf;
import static dev.stele.testing.ArchitectureRules.noPackageCycles;
import static dev.stele.testing.ArchitectureRules.noTestSupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/**
 * The command line: {@code cluster}'s commands build on the shared command classes of {@code
 * dev.stele.cli}, which uses {@code cluster} only to name those commands as subcommands (picocli's
 * wiring, from {@link Main} and the command groups); and it never uses test support.
 */
class CliArchitectureTest {
  private static final JavaClasses CLI = mainClassesOf(Main.class);

  @Test
  void cliPackagesFormNoCyclesBeyondNamingSubcommands() {
    noPackageCycles("dev.stele")
        .ignoreDependency(
            resideInAPackage("dev.stele.cli").and(annotatedWith(Command.class)),
            resideInAPackage("dev.stele.cli.cluster").and(annotatedWith(Command.class)))
        .check(CLI);
  }

  @Test
  void cliNeverUsesTestSupport() {
    noTestSupport().check(CLI);
  }
}
