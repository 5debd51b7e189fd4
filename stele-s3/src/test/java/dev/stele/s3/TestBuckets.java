package dev.stele.s3;

import dev.stele.testing.Rgw;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.s3.S3Client;

/** Buckets on the shared Ceph RGW, each new, and the locations and stores that use them. */
final class TestBuckets {
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  private TestBuckets() {}

  /** A location at the shared gateway, in {@code bucket}, under a prefix no other test uses. */
  static S3Location location(String bucket) {
    Rgw rgw = Rgw.shared();
    return new S3Location(
        bucket,
        "t" + PREFIXES.incrementAndGet(),
        rgw.endpoint(),
        rgw.region(),
        true,
        null,
        new AwsKeys(rgw.accessKey(), rgw.secretKey(), null),
        null);
  }

  /** A raw client for setting up buckets and looking behind the store's back. */
  static RawS3 raw() {
    return RawS3.connect();
  }

  /** A new bucket, created with object lock (and so with versioning) if {@code locked}. */
  static String create(S3Client client, boolean locked) {
    String bucket = (locked ? "lock-" : "plain-") + UUID.randomUUID().toString().substring(0, 18);
    client.createBucket(b -> b.bucket(bucket).objectLockEnabledForBucket(locked ? true : null));
    return bucket;
  }

  /** The store's own client for {@code bucket}, for what tests ask of it directly. */
  static S3Api api(String bucket) throws IOException {
    S3Location location = location(bucket);
    S3Http http =
        S3Http.connect(location, location.region(), S3Signing.credentials(location), List.of());
    return new S3Api(http, S3Retries.of(S3Options.defaults()));
  }

  static S3BlobStore store(String bucket) throws IOException {
    return S3BlobStore.open(location(bucket));
  }

  static S3BlobStore store(String bucket, S3Options options, List<S3Http.Tap> taps)
      throws IOException {
    return S3BlobStore.open(location(bucket), options, taps);
  }
}
