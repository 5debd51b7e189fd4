package dev.stele.s3;

import dev.stele.testing.Rgw;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * The AWS SDK's S3 client on the shared gateway: a client independent of the store's own, for tests
 * to set up buckets and look behind the store's back.
 */
final class RawS3 implements AutoCloseable {
  final S3Client s3;

  private RawS3(S3Client s3) {
    this.s3 = s3;
  }

  @SuppressWarnings("deprecation") // ApacheHttpClient, as for the tests' other SDK clients
  static RawS3 connect() {
    Rgw rgw = Rgw.shared();
    return new RawS3(
        S3Client.builder()
            .httpClient(ApacheHttpClient.builder().expectContinueEnabled(false).build())
            .endpointOverride(rgw.endpoint())
            .region(Region.of(rgw.region()))
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(rgw.accessKey(), rgw.secretKey())))
            // RGW 16 rejects the SDK's default aws-chunked bodies with trailing checksums.
            .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .build());
  }

  @Override
  public void close() {
    s3.close();
  }
}
