package dev.stele.operator.store;

import dev.stele.blob.BlobStore;
import dev.stele.s3.BucketConfig;
import java.io.IOException;

/**
 * The operator's only way to storage: the seam where tests put directories, a local S3 server, or
 * an auditing wrapper. See {@link DefaultStoreFactory}.
 *
 * <p>Concurrency: implementations are called from several reconciler threads at once.
 */
public interface StoreFactory {

  /**
   * What the place enforces: versioning, object lock and its default rule.
   *
   * @throws IOException if it cannot be reached, does not exist, or refuses the credentials
   */
  BucketConfig inspect(Place place) throws IOException;

  /** A store of the blobs under {@code path} (relative to the bucket, prefix included). */
  BlobStore open(Place place, String path) throws IOException;
}
