package dev.stele.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules each module's tests pin its package structure with (ArchUnit), so that a change which
 * breaks the layering fails a test naming the dependency instead of slowly eroding the design: no
 * package cycles, packages in levels that only ever use lower levels, and main code that never
 * reaches test support or the command line.
 */
public final class ArchitectureRules {
  private ArchitectureRules() {}

  /**
   * The main classes of one module: those in the class directory or jar that holds {@code
   * anyMainClass}, without its tests and without its dependencies.
   */
  public static JavaClasses mainClassesOf(Class<?> anyMainClass) {
    return new ClassFileImporter()
        .withImportOption(location -> !location.contains("module-info"))
        .importUrl(anyMainClass.getProtectionDomain().getCodeSource().getLocation());
  }

  /**
   * No two packages below {@code root} use each other, directly or round a longer cycle: each
   * package is a slice of its own.
   */
  public static SliceRule noPackageCycles(String root) {
    return slices().matching(root + ".(**)").as("packages below " + root).should().beFreeOfCycles();
  }

  /**
   * The packages below {@code root} stand in levels, bottom first: a package may use packages of
   * lower levels only, never one of its own level or above (subpackages belong to their parent),
   * and every class must be in one of the packages named, so that a new package has to be given its
   * place here. Names are relative to {@code root}; the empty name is {@code root} itself.
   */
  public static ArchRule levels(String root, List<List<String>> bottomUp) {
    LayeredArchitecture rule =
        layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(false);
    for (List<String> level : bottomUp) {
      for (String name : level) {
        String pkg = name.isEmpty() ? root : root + "." + name;
        rule = rule.layer(pkg).definedBy(name.isEmpty() ? root : pkg + "..");
      }
    }
    List<String> above = new ArrayList<>();
    for (int i = bottomUp.size() - 1; i >= 0; i--) {
      List<String> level = new ArrayList<>();
      for (String name : bottomUp.get(i)) {
        String pkg = name.isEmpty() ? root : root + "." + name;
        rule =
            above.isEmpty()
                ? rule.whereLayer(pkg).mayNotBeAccessedByAnyLayer()
                : rule.whereLayer(pkg).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
        level.add(pkg);
      }
      above.addAll(level);
    }
    return rule.ensureAllClassesAreContainedInArchitecture()
        .because("a package uses only the levels below it (" + root + ")");
  }

  /** Main code never uses the test kits, stele-testing and stele-k8s-testing. */
  public static ArchRule noTestSupport() {
    return noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.stele.testing..", "dev.stele.k8s.testing..")
        .because("test support is for tests only");
  }

  /** Main code never uses the command line: it sits on top of everything else. */
  public static ArchRule noCommandLine() {
    return noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.stele.cli..")
        .because("the command line uses the engine and the operator, never the other way round");
  }
}
