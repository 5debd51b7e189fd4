package dev.stele.s3;

import dev.stele.blob.Aside;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/** Reads a bucket's {@link BucketConfig} from the server: two requests at once, no writes. */
final class BucketInspector {
  private BucketInspector() {}

  /**
   * The configuration of {@code bucket}.
   *
   * @throws IOException if the bucket does not exist or cannot be read with these credentials
   */
  static BucketConfig inspect(S3Api api, String bucket) throws IOException {
    Aside<Optional<S3Api.LockConfiguration>> lock =
        Aside.start("stele-s3-object-lock", () -> objectLock(api, bucket));
    String versioning;
    try {
      versioning = api.versioning();
    } catch (S3Failure e) {
      throw S3Errors.io("bucket " + bucket, e);
    }
    return config(bucket, versioning, lock.get());
  }

  /** The bucket's object lock configuration; none if it has none or the server has no lock. */
  private static Optional<S3Api.LockConfiguration> objectLock(S3Api api, String bucket)
      throws IOException {
    try {
      return Optional.of(api.objectLock());
    } catch (S3Failure e) {
      // ObjectLockConfigurationNotFoundError (404) on a bucket without lock; servers that do not
      // implement object lock answer 400, 404 or 501. Any of them means: nothing is enforced.
      if (e.status() == 0 || e.status() == 403 || (e.status() >= 500 && e.status() != 501)) {
        throw S3Errors.io("bucket " + bucket + ": object lock configuration", e);
      }
      return Optional.empty();
    }
  }

  private static BucketConfig config(
      String bucket, String status, Optional<S3Api.LockConfiguration> lock) {
    boolean enabled = lock.isPresent() && lock.get().enabled();
    Retention.Mode mode = Retention.Mode.NONE;
    Duration period = Duration.ZERO;
    String ruleMode = lock.map(S3Api.LockConfiguration::mode).orElse(null);
    if (enabled && ruleMode != null) {
      S3Api.LockConfiguration rule = lock.get();
      mode = Retention.Mode.valueOf(ruleMode);
      period =
          rule.days() != null
              ? Duration.ofDays(rule.days())
              : Duration.ofDays(365L * (rule.years() == null ? 0 : rule.years()));
    }
    return new BucketConfig(bucket, status, enabled, mode, period);
  }
}
