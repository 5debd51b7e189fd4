package dev.stele.s3;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a store signs its requests with: the region and the credentials of a location.
 *
 * <p>The common cases are answered here: the location's own keys and region, else the system
 * properties and environment ({@code aws.accessKeyId}, {@code AWS_ACCESS_KEY_ID}, {@code
 * AWS_REGION}…). Only what is left goes to the AWS SDK, through {@link SdkSigning}, which is loaded
 * only then.
 */
final class S3Signing {
  private S3Signing() {}

  /**
   * The location's region; else the system's ({@code aws.region}, {@code AWS_REGION}); else what
   * {@link SdkSigning#region} finds.
   */
  static String region(S3Location location) {
    if (location.region() != null) {
      return location.region();
    }
    String system = setting("aws.region", "AWS_REGION");
    if (system != null) {
      return system;
    }
    return sdk(() -> SdkSigning.region(location));
  }

  /**
   * The location's keys; else, without a profile, the system's; else what {@link
   * SdkSigning#credentials} finds.
   */
  static Supplier<AwsKeys> credentials(S3Location location) {
    AwsKeys given = location.keys();
    if (given != null) {
      return () -> given;
    }
    if (location.profile() == null) {
      String key = setting("aws.accessKeyId", "AWS_ACCESS_KEY_ID");
      String secret = setting("aws.secretAccessKey", "AWS_SECRET_ACCESS_KEY");
      if (key != null && secret != null) {
        AwsKeys fixed = new AwsKeys(key, secret, setting("aws.sessionToken", "AWS_SESSION_TOKEN"));
        return () -> fixed;
      }
    }
    return sdk(() -> SdkSigning.credentials(location));
  }

  /**
   * {@code call} on the AWS SDK, whose jars the launcher leaves off the class path of a command
   * that names its keys and region (docs/performance.md, nineteenth round).
   */
  private static <T> T sdk(Supplier<T> call) {
    try {
      return call.get();
    } catch (NoClassDefFoundError e) {
      throw new IllegalArgumentException(
          "no access key and region given, and the AWS SDK that would look for them is not on"
              + " the class path (lib/remote/)",
          e);
    }
  }

  /** A system property, else an environment variable; blank counts as unset. */
  private static @Nullable String setting(String property, String variable) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      value = System.getenv(variable);
    }
    return value == null || value.isBlank() ? null : value.strip();
  }
}
