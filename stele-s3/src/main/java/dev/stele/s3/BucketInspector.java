package dev.stele.s3;

import dev.stele.blob.Aside;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DefaultRetention;
import software.amazon.awssdk.services.s3.model.GetBucketVersioningResponse;
import software.amazon.awssdk.services.s3.model.ObjectLockConfiguration;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;

/** Reads a bucket's {@link BucketConfig} from the server: two requests at once, no writes. */
final class BucketInspector {
  private BucketInspector() {}

  /**
   * The configuration of {@code bucket}.
   *
   * @throws IOException if the bucket does not exist or cannot be read with these credentials
   */
  public static BucketConfig inspect(S3Client client, String bucket) throws IOException {
    Aside<Optional<ObjectLockConfiguration>> lock =
        Aside.start("stele-s3-object-lock", () -> objectLock(client, bucket));
    GetBucketVersioningResponse versioning;
    try {
      versioning = client.getBucketVersioning(b -> b.bucket(bucket));
    } catch (SdkException e) {
      throw S3Errors.io("bucket " + bucket, e);
    }
    String status =
        versioning.status() == null
                || versioning.status() == BucketVersioningStatus.UNKNOWN_TO_SDK_VERSION
            ? "Off"
            : versioning.statusAsString();
    return config(bucket, status, lock.get().orElse(null));
  }

  /** The bucket's object lock configuration; none if it has none or the server has no lock. */
  private static Optional<ObjectLockConfiguration> objectLock(S3Client client, String bucket)
      throws IOException {
    try {
      return Optional.ofNullable(
          client.getObjectLockConfiguration(b -> b.bucket(bucket)).objectLockConfiguration());
    } catch (AwsServiceException e) {
      // ObjectLockConfigurationNotFoundError (404) on a bucket without lock; servers that do not
      // implement object lock answer 400, 404 or 501. Any of them means: nothing is enforced.
      if (e.statusCode() == 403 || (e.statusCode() >= 500 && e.statusCode() != 501)) {
        throw S3Errors.io("bucket " + bucket + ": object lock configuration", e);
      }
      return Optional.empty();
    } catch (SdkException e) {
      throw S3Errors.io("bucket " + bucket + ": object lock configuration", e);
    }
  }

  private static BucketConfig config(
      String bucket, String status, @Nullable ObjectLockConfiguration lock) {
    boolean enabled = lock != null && lock.objectLockEnabled() == ObjectLockEnabled.ENABLED;
    Retention.Mode mode = Retention.Mode.NONE;
    Duration period = Duration.ZERO;
    if (lock != null && enabled && lock.rule() != null && lock.rule().defaultRetention() != null) {
      DefaultRetention rule = lock.rule().defaultRetention();
      mode = Retention.Mode.valueOf(rule.modeAsString());
      period =
          rule.days() != null
              ? Duration.ofDays(rule.days())
              : Duration.ofDays(365L * (rule.years() == null ? 0 : rule.years()));
    }
    return new BucketConfig(bucket, status, enabled, mode, period);
  }
}
