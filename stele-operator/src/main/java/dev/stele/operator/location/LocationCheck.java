package dev.stele.operator.location;

import dev.stele.blob.Retention;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.Durations;
import dev.stele.k8s.api.LockMode;
import dev.stele.k8s.api.Provider;
import dev.stele.s3.BucketConfig;
import java.time.Duration;

/**
 * Decides, from what a location asks for and what its bucket reports, whether repositories can live
 * there and with which {@link Lock}. Pure: no I/O.
 */
final class LocationCheck {
  private LocationCheck() {}

  /** Either a lock, or a message saying what to change. */
  record Verdict(Lock lock, String problem) {
    boolean ok() {
      return problem == null;
    }
  }

  static Verdict decide(
      Provider provider, BackupStorageLocationSpec.ObjectLock asked, BucketConfig b) {
    String spelled = asked == null || asked.mode == null ? LockMode.DETECT.value() : asked.mode;
    LockMode mode = LockMode.of(spelled).orElse(null);
    if (mode == null) {
      return new Verdict(
          null,
          "objectLock.mode " + spelled + " is not one of Detect, None, Governance, Compliance");
    }
    Duration minimum;
    try {
      minimum = Durations.parse(asked == null ? null : asked.minimumRetention, Duration.ZERO);
    } catch (IllegalArgumentException e) {
      return new Verdict(null, "objectLock.minimumRetention: " + e.getMessage());
    }
    switch (mode) {
      case NONE -> {
        return new Verdict(Lock.NONE, null);
      }
      case DETECT -> {
        if (b.defaultMode() == Retention.Mode.NONE) {
          return new Verdict(Lock.NONE, null);
        }
        Duration period = minimum.isZero() ? b.defaultPeriod() : minimum;
        return new Verdict(new Lock(b.defaultMode(), period), null);
      }
      case GOVERNANCE, COMPLIANCE -> {
        Retention.Mode wanted = Retention.Mode.valueOf(mode.name());
        if (minimum.isZero()) {
          if (b.defaultMode() == Retention.Mode.NONE) {
            return new Verdict(
                null,
                "objectLock.mode "
                    + mode
                    + " needs objectLock.minimumRetention (such as 30d): the bucket has no"
                    + " default rule to take it from");
          }
          minimum = b.defaultPeriod();
        }
        if (provider != Provider.FILESYSTEM) {
          if (!b.objectLock()) {
            return new Verdict(
                null,
                "bucket "
                    + b.bucket()
                    + " does not have object lock enabled, so it cannot honour objectLock.mode "
                    + mode
                    + ": use a bucket created with object lock, or set objectLock.mode to None");
          }
          if (!b.versioned()) {
            return new Verdict(
                null,
                "bucket "
                    + b.bucket()
                    + " has object lock but versioning is "
                    + b.versioning()
                    + ": enable versioning on the bucket");
          }
        }
        return new Verdict(new Lock(wanted, minimum), null);
      }
    }
    throw new AssertionError(mode);
  }

  /** {@code compliance/30d} or {@code none}: the bucket's default rule. */
  static String defaultRule(BucketConfig b) {
    return new Lock(b.defaultMode(), b.defaultPeriod()).toString();
  }
}
