package dev.stele.s3;

import dev.stele.blob.Capabilities;
import dev.stele.blob.Retention;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a bucket enforces, as the server reports it: versioning, object lock, and the default
 * retention rule that the server applies to writes that ask for none.
 *
 * @param bucket the bucket name
 * @param versioning {@code Enabled}, {@code Suspended}, or {@code Off} for a bucket that never had
 *     versioning
 * @param objectLock true if object lock is enabled on the bucket
 * @param defaultMode the default rule's mode; {@link Retention.Mode#NONE} without a rule
 * @param defaultPeriod the default rule's period; {@link Duration#ZERO} without a rule
 */
public record BucketConfig(
    String bucket,
    String versioning,
    boolean objectLock,
    Retention.Mode defaultMode,
    Duration defaultPeriod) {

  public BucketConfig {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(versioning, "versioning");
    Objects.requireNonNull(defaultMode, "defaultMode");
    Objects.requireNonNull(defaultPeriod, "defaultPeriod");
  }

  public boolean versioned() {
    return versioning.equals("Enabled");
  }

  /**
   * What a store on this bucket can promise. Conditional create is claimed only for unversioned
   * buckets: Ceph RGW ignores {@code If-None-Match} on versioned ones, and the store cannot tell
   * RGW from AWS, so it claims nothing it has not seen enforced. Point-in-time reads need versions.
   */
  public Capabilities capabilities() {
    return new Capabilities(objectLock, versioned(), !versioned(), versioned());
  }

  /**
   * Why this bucket cannot hold a repository that retains its blobs as {@code mode}, phrased as
   * what to change; empty if it can.
   */
  public Optional<String> problemWith(Retention.Mode mode) {
    if (mode == Retention.Mode.NONE) {
      return Optional.empty();
    }
    String lockMode = mode.name().toLowerCase(java.util.Locale.ROOT);
    if (!objectLock) {
      return Optional.of(
          "bucket "
              + bucket
              + " does not have object lock enabled, so it cannot enforce --lock-mode "
              + lockMode
              + ": use a bucket created with object lock (aws s3api create-bucket"
              + " --object-lock-enabled-for-bucket), or choose --lock-mode none");
    }
    if (!versioned()) {
      return Optional.of(
          "bucket "
              + bucket
              + " has object lock but versioning is "
              + versioning
              + ": enable versioning on the bucket");
    }
    return Optional.empty();
  }

  /** One line for people: {@code versioning Enabled, object lock on, default compliance 30d}. */
  public String summary() {
    String rule =
        defaultMode == Retention.Mode.NONE
            ? "no default retention"
            : "default "
                + defaultMode.name().toLowerCase(java.util.Locale.ROOT)
                + " "
                + defaultPeriod.toDays()
                + "d";
    return "versioning "
        + versioning
        + ", object lock "
        + (objectLock ? "on" : "off")
        + ", "
        + rule;
  }
}
