package dev.stele.operator;

import static dev.stele.testing.ArchitectureRules.levels;
import static dev.stele.testing.ArchitectureRules.mainClassesOf;
import static dev.stele.testing.ArchitectureRules.noCommandLine;
import static dev.stele.testing.ArchitectureRules.noPackageCycles;
import static dev.stele.testing.ArchitectureRules.noTestSupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operator's packages, bottom up: the way to storage ({@code store}) and the Kubernetes helpers
 * every reconciler shares ({@code kube}) and the hooks run in pods ({@code hook}); then the
 * resources in the order they need each other — locations, the repositories under them, backups
 * into those; then what works on backups (restore, schedule, deletion, sync) and the node agent,
 * none of which uses another; and the process wiring ({@code dev.stele.operator} itself) on top. A
 * new package gets its place in this list.
 */
class OperatorArchitectureTest {
  private static final JavaClasses OPERATOR = mainClassesOf(SteleOperator.class);

  @Test
  void operatorPackagesFormNoCycles() {
    noPackageCycles("dev.stele").check(OPERATOR);
  }

  @Test
  void operatorPackagesUseOnlyTheLevelsBelowThem() {
    levels(
            "dev.stele.operator",
            List.of(
                List.of("store"),
                List.of("kube"),
                List.of("hook"),
                List.of("location"),
                List.of("repository"),
                List.of("backup"),
                List.of("restore", "schedule", "deletion", "sync", "nodeagent", "server"),
                List.of("")))
        .check(OPERATOR);
  }

  @Test
  void operatorNeverUsesTestSupportOrTheCommandLine() {
    noTestSupport().check(OPERATOR);
    noCommandLine().check(OPERATOR);
  }
}
