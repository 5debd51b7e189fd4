package dev.stele.s3;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProviderChain;
import software.amazon.awssdk.regions.providers.InstanceProfileRegionProvider;

/**
 * What a store signs its requests with: the region and the credentials of a location.
 *
 * <p>The common cases are answered here: the location's own keys and region, else the system
 * properties and environment ({@code aws.accessKeyId}, {@code AWS_ACCESS_KEY_ID}, {@code
 * AWS_REGION}…). Only what is left (profile files, a web identity token exchanged with STS, the
 * container's or the EC2 instance's credentials) goes to the AWS SDK's providers, which are loaded
 * only then, and keep refreshing what expires.
 */
final class S3Signing {
  private S3Signing() {}

  /**
   * The location's region; else the system's ({@code aws.region}, {@code AWS_REGION}), then the
   * profile file's (the location's profile, or the default one), then, on AWS only, the EC2
   * instance metadata's; else us-east-1. With an endpoint of its own (RGW, MinIO) the instance
   * metadata is never asked: off EC2 that question cost every command 1.5 s of timeouts.
   */
  static String region(S3Location location) {
    if (location.region() != null) {
      return location.region();
    }
    String system = setting("aws.region", "AWS_REGION");
    if (system != null) {
      return system;
    }
    List<AwsRegionProvider> providers = new ArrayList<>();
    providers.add(
        location.profile() == null
            ? new AwsProfileRegionProvider()
            : new AwsProfileRegionProvider(ProfileFile::defaultProfileFile, location.profile()));
    if (location.endpoint() == null) {
      providers.add(new InstanceProfileRegionProvider());
    }
    try {
      return new AwsRegionProviderChain(providers.toArray(AwsRegionProvider[]::new))
          .getRegion()
          .id();
    } catch (SdkException e) {
      return "us-east-1";
    }
  }

  /** The location's keys; else its profile's, else the system's, else the SDK's default chain. */
  static Supplier<SigV4.Credentials> credentials(S3Location location) {
    if (location.accessKey() != null && location.secretKey() != null) {
      SigV4.Credentials fixed =
          new SigV4.Credentials(location.accessKey(), location.secretKey(), null);
      return () -> fixed;
    }
    if (location.profile() == null) {
      String key = setting("aws.accessKeyId", "AWS_ACCESS_KEY_ID");
      String secret = setting("aws.secretAccessKey", "AWS_SECRET_ACCESS_KEY");
      if (key != null && secret != null) {
        SigV4.Credentials fixed =
            new SigV4.Credentials(key, secret, setting("aws.sessionToken", "AWS_SESSION_TOKEN"));
        return () -> fixed;
      }
    }
    AwsCredentialsProvider provider =
        location.profile() != null
            ? ProfileCredentialsProvider.create(location.profile())
            : DefaultCredentialsProvider.builder().build();
    return () -> {
      try {
        AwsCredentials resolved = provider.resolveCredentials();
        return new SigV4.Credentials(
            resolved.accessKeyId(),
            resolved.secretAccessKey(),
            resolved instanceof AwsSessionCredentials session ? session.sessionToken() : null);
      } catch (SdkException e) {
        // The SDK's message lists every place it looked, at length: it stays the cause (--debug).
        throw new S3Failure(
            0,
            "NoCredentials",
            "no AWS credentials: none in the location, AWS_ACCESS_KEY_ID and"
                + " AWS_SECRET_ACCESS_KEY, a profile, a web identity token, or a container or"
                + " instance role",
            e);
      }
    };
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
