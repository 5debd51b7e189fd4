package dev.stele.cli;

import dev.stele.testing.Rgw;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * New buckets on the shared Ceph RGW, made with the AWS SDK's client: one independent of Stele's
 * own, for tests to set up what the command line is then run on.
 */
public final class RgwBuckets {
  private RgwBuckets() {}

  /** A new bucket named {@code prefix} and a random suffix, with object lock if {@code locked}. */
  public static String create(String prefix, boolean locked) {
    String name = prefix + UUID.randomUUID().toString().substring(0, 8);
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(name).objectLockEnabledForBucket(locked ? true : null));
    }
    return name;
  }

  @SuppressWarnings(
      "deprecation") // ApacheHttpClient: its successor, apache5-client, is a new dependency and a
  // change of its own
  private static S3Client client() {
    Rgw rgw = Rgw.shared();
    return S3Client.builder()
        .httpClientBuilder(ApacheHttpClient.builder().expectContinueEnabled(false))
        .endpointOverride(rgw.endpoint())
        .region(Region.of(rgw.region()))
        .forcePathStyle(true)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(rgw.accessKey(), rgw.secretKey())))
        .build();
  }
}
