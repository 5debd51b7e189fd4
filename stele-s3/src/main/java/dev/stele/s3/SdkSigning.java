package dev.stele.s3;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
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
 * What {@link S3Signing} leaves to the AWS SDK: profile files, a web identity token exchanged with
 * STS, the container's or the EC2 instance's credentials and region. Only this class names the SDK,
 * so that a command whose location or environment answers both questions runs without the SDK's
 * jars (the launcher's short class path, docs/performance.md, nineteenth round).
 */
final class SdkSigning {
  private SdkSigning() {}

  /**
   * The profile file's region (the location's profile, or the default one), then, on AWS only, the
   * EC2 instance metadata's; else us-east-1. With an endpoint of its own (RGW, MinIO) the instance
   * metadata is never asked: off EC2 that question cost every command 1.5 s of timeouts.
   */
  static String region(S3Location location) {
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

  /**
   * The location's profile's credentials, else the SDK's default chain; the SDK's providers keep
   * refreshing what expires.
   */
  static Supplier<AwsKeys> credentials(S3Location location) {
    AwsCredentialsProvider provider =
        location.profile() != null
            ? ProfileCredentialsProvider.create(location.profile())
            : DefaultCredentialsProvider.builder().build();
    return () -> {
      try {
        AwsCredentials resolved = provider.resolveCredentials();
        return new AwsKeys(
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
}
