package dev.stele.operator.location;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.Provider;
import dev.stele.s3.BucketConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LocationCheckTest {
  private static final BucketConfig COMPLIANT =
      new BucketConfig("vault", "Enabled", true, Retention.Mode.COMPLIANCE, Duration.ofDays(30));

  private static BackupStorageLocationSpec.ObjectLock asked(String mode, Boolean weaker) {
    var lock = new BackupStorageLocationSpec.ObjectLock();
    lock.mode = mode;
    lock.minimumRetention = "30d";
    lock.allowWeakerThanBucket = weaker;
    return lock;
  }

  @Test
  void governanceOnABucketWhoseRuleIsComplianceIsRefusedSayingWhatToSet() {
    var verdict = LocationCheck.decide(Provider.S3, asked("Governance", null), COMPLIANT);
    assertThat(verdict.ok()).isFalse();
    assertThat(verdict.problem())
        .isEqualTo(
            "objectLock.mode Governance is weaker than the default rule of bucket vault"
                + " (compliance/30d): whoever may bypass governance retention could delete backups"
                + " the bucket alone would keep: set objectLock.mode to Compliance or Detect, or"
                + " set objectLock.allowWeakerThanBucket: true to accept it");
  }

  @Test
  void governanceSaidExplicitlyIsAcceptedWithAWarning() {
    var verdict = LocationCheck.decide(Provider.S3, asked("Governance", true), COMPLIANT);
    assertThat(verdict.ok()).isTrue();
    assertThat(verdict.lock()).isEqualTo(new Lock(Retention.Mode.GOVERNANCE, Duration.ofDays(30)));
    assertThat(verdict.weaker()).endsWith("(accepted: objectLock.allowWeakerThanBucket)");
    assertThat(LocationCheck.protection(verdict.lock(), COMPLIANT)).isEqualTo("governance 30d");
  }

  @Test
  void complianceOrDetectOnSuchABucketIsNotWeaker() {
    for (String mode : new String[] {"Compliance", "compliance", "Detect"}) {
      var verdict = LocationCheck.decide(Provider.S3, asked(mode, null), COMPLIANT);
      assertThat(verdict.ok()).as(mode).isTrue();
      assertThat(verdict.weaker()).as(mode).isNull();
      assertThat(LocationCheck.protection(verdict.lock(), COMPLIANT)).isEqualTo("compliance 30d");
    }
  }

  @Test
  void withoutALockProtectionSaysWhetherVersioningKeepsOldVersions() {
    var versioned = new BucketConfig("b", "Enabled", false, Retention.Mode.NONE, Duration.ZERO);
    var plain = new BucketConfig("b", "Off", false, Retention.Mode.NONE, Duration.ZERO);
    assertThat(LocationCheck.protection(Lock.NONE, versioned)).isEqualTo("versioning only");
    assertThat(LocationCheck.protection(Lock.NONE, plain)).isEqualTo("none");
  }
}
