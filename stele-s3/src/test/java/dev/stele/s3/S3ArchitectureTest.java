package dev.stele.s3;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.stele.testing.ArchitectureRules.mainClassesOf;
import static dev.stele.testing.ArchitectureRules.noCommandLine;
import static dev.stele.testing.ArchitectureRules.noTestSupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** The S3 store plugs in below the repository: of Stele's code it uses the blob store SPI only. */
class S3ArchitectureTest {
  private static final JavaClasses S3 = mainClassesOf(S3BlobStore.class);

  @Test
  void s3UsesNothingOfSteleButTheBlobStoreSpi() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.stele.chunk..", "dev.stele.crypto..", "dev.stele.repo..")
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.stele.snapshot..", "dev.stele.maintenance..")
        .because("a store knows nothing of what is stored in it")
        .check(S3);
  }

  @Test
  void s3NeverUsesTestSupportOrTheCommandLine() {
    noTestSupport().check(S3);
    noCommandLine().check(S3);
  }
}
