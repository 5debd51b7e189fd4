package dev.stele.s3;

import dev.stele.blob.BlobStore;
import dev.stele.testing.BlobStoreContractTest;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The blob store contract against Ceph RGW, in a bucket with object lock: the server, not the
 * store, refuses deletes of retained versions. Each test gets its own prefix in one bucket.
 */
class S3BlobStoreTest extends BlobStoreContractTest {
  private static S3Clients raw;
  private static String bucket;

  @BeforeAll
  static void createBucket() throws IOException {
    raw = TestBuckets.raw();
    bucket = TestBuckets.create(raw.reads, true);
  }

  @AfterAll
  static void closeClient() {
    raw.close();
  }

  @Override
  protected BlobStore newStore(MutableClock clock) throws IOException {
    return TestBuckets.store(bucket);
  }

  @Override
  protected boolean clockControlsRetention() {
    return false;
  }
}
