package dev.stele.operator.location;

import dev.stele.blob.Retention;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.Durations;
import dev.stele.k8s.api.LockMode;
import dev.stele.k8s.api.Provider;
import dev.stele.s3.BucketConfig;
import java.time.Duration;
import java.util.Locale;

/**
 * Decides, from what a location asks for and what its bucket reports, whether repositories can live
 * there and with which {@link Lock}. Pure: no I/O.
 */
final class LocationCheck {
  private LocationCheck() {}

  /**
   * Either a lock, or a message saying what to change; with a lock, {@code weaker} says when it is
   * weaker than the bucket's default rule and the spec accepted that (else null).
   */
  record Verdict(Lock lock, String problem, String weaker) {
    Verdict(Lock lock, String problem) {
      this(lock, problem, null);
    }

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
        Lock lock = new Lock(wanted, minimum);
        if (wanted == Retention.Mode.GOVERNANCE && b.defaultMode() == Retention.Mode.COMPLIANCE) {
          String weaker =
              "objectLock.mode Governance is weaker than the default rule of bucket "
                  + b.bucket()
                  + " ("
                  + defaultRule(b)
                  + "): whoever may bypass governance retention could delete backups the bucket"
                  + " alone would keep";
          return Boolean.TRUE.equals(asked.allowWeakerThanBucket)
              ? new Verdict(lock, null, weaker + " (accepted: objectLock.allowWeakerThanBucket)")
              : new Verdict(
                  null,
                  weaker
                      + ": set objectLock.mode to Compliance or Detect, or set"
                      + " objectLock.allowWeakerThanBucket: true to accept it");
        }
        return new Verdict(lock, null);
      }
    }
    throw new AssertionError(mode);
  }

  /**
   * The Protected condition of a usable location: whether its bucket keeps the backups from
   * deletion, why, and ({@code warn}) whether that is worth a Warning Event when it starts.
   */
  record Guard(boolean ok, String reason, String message, boolean warn) {}

  static Guard guard(Verdict verdict, BackupStorageLocationSpec.ObjectLock asked, BucketConfig b) {
    if (verdict.weaker() != null) {
      return new Guard(true, "WeakerThanBucket", verdict.weaker(), true);
    }
    if (verdict.lock().mode() != Retention.Mode.NONE) {
      return new Guard(
          true, "ObjectLock", "every blob is retained: " + protection(verdict.lock(), b), false);
    }
    String message =
        b.objectLock()
            ? "bucket "
                + b.bucket()
                + " has object lock but no default rule, so nothing is retained: set"
                + " objectLock.mode Compliance or Governance with a minimumRetention"
            : "bucket "
                + b.bucket()
                + (b.versioned()
                    ? " has versioning but no object lock"
                    : " has neither versioning nor object lock")
                + ": anyone with its credentials can delete the backups; use a bucket with object"
                + " lock for backups that must survive that";
    // Asked for in so many words (mode None), it is no news worth a Warning.
    boolean detected =
        asked == null || LockMode.of(asked.mode).orElse(LockMode.DETECT) == LockMode.DETECT;
    return new Guard(false, "NoObjectLock", message, detected);
  }

  /**
   * What keeps the backups from deletion, as the printer column shows it: {@code compliance 30d},
   * {@code governance 30d}, {@code versioning only} (old versions survive an overwrite, but anyone
   * with the credentials can delete them), or {@code none}.
   */
  static String protection(Lock lock, BucketConfig b) {
    if (lock.mode() != Retention.Mode.NONE) {
      return lock.mode().name().toLowerCase(Locale.ROOT) + " " + Durations.format(lock.minimum());
    }
    return b.versioned() ? "versioning only" : "none";
  }

  /** {@code compliance/30d} or {@code none}: the bucket's default rule. */
  static String defaultRule(BucketConfig b) {
    return new Lock(b.defaultMode(), b.defaultPeriod()).toString();
  }
}
