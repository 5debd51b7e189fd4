package dev.stele.s3;

import dev.stele.blob.BlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.VersionedBlobStoreContractTest;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The blob store contract, point in time included, against Ceph RGW, in a bucket with object lock:
 * the server, not the store, refuses deletes of retained versions. Each test gets its own prefix in
 * one bucket.
 */
class S3BlobStoreTest extends VersionedBlobStoreContractTest {
  private static RawS3 raw;
  private static String bucket;

  @BeforeAll
  static void createBucket() throws IOException {
    raw = TestBuckets.raw();
    bucket = TestBuckets.create(raw.s3, true);
  }

  @AfterAll
  static void closeClient() {
    raw.close();
  }

  @Override
  protected BlobStore newStore(MutableClock clock) throws IOException {
    return TestBuckets.store(bucket);
  }

  private String key(String name) {
    return ((S3BlobStore) store).location().key(name);
  }

  @Override
  protected void overwrite(String name, byte[] data) {
    raw.s3.putObject(b -> b.bucket(bucket).key(key(name)), RequestBody.fromBytes(data));
  }

  @Override
  protected void hide(String name) {
    raw.s3.deleteObject(b -> b.bucket(bucket).key(key(name)));
  }

  @Override
  protected boolean clockControlsRetention() {
    return false;
  }

  @Override
  protected boolean readsIntoTheCallersBuffer() {
    return true;
  }
}
