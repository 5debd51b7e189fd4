package dev.stele.engine;

import static dev.stele.testing.ArchitectureRules.levels;
import static dev.stele.testing.ArchitectureRules.mainClassesOf;
import static dev.stele.testing.ArchitectureRules.noCommandLine;
import static dev.stele.testing.ArchitectureRules.noPackageCycles;
import static dev.stele.testing.ArchitectureRules.noTestSupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.stele.repo.Repository;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * stele-core's packages, bottom up: where JNA finds its native library; the blob store SPI, the KDF
 * and ciphers, and the chunker know nothing of each other; the repository builds on all three;
 * snapshots of directory trees on the repository; maintenance, which walks snapshots, on top.
 * (Checked here because stele-core cannot depend on the testing kit that depends on it.)
 */
class CoreArchitectureTest {
  private static final JavaClasses CORE = mainClassesOf(Repository.class);

  @Test
  void corePackagesFormNoCycles() {
    noPackageCycles("dev.stele").check(CORE);
  }

  @Test
  void corePackagesUseOnlyTheLevelsBelowThem() {
    levels(
            "dev.stele",
            List.of(
                List.of("jna"),
                List.of("blob", "crypto", "chunk"),
                List.of("repo"),
                List.of("snapshot"),
                List.of("maintenance")))
        .check(CORE);
  }

  @Test
  void coreNeverUsesTestSupportOrTheCommandLine() {
    noTestSupport().check(CORE);
    noCommandLine().check(CORE);
  }
}
