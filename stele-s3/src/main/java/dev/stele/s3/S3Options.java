package dev.stele.s3;

import java.time.Duration;

/**
 * Tuning of an {@link S3BlobStore}; {@link #defaults()} suits AWS and Ceph RGW.
 *
 * @param multipartThreshold blobs larger than this are uploaded in parts
 * @param partSize the size of each part but the last; at least 5 MiB, as S3 requires
 * @param maxAttempts attempts per request, including the first (a create's, after looking)
 * @param baseDelay the first backoff; each later one doubles, with full jitter
 * @param maxDelay the cap on one backoff
 */
record S3Options(
    long multipartThreshold, int partSize, int maxAttempts, Duration baseDelay, Duration maxDelay) {

  public static final int MIN_PART_SIZE = 5 << 20;

  public S3Options {
    if (partSize < MIN_PART_SIZE) {
      throw new IllegalArgumentException("parts must be at least 5 MiB: " + partSize);
    }
    if (multipartThreshold < partSize) {
      throw new IllegalArgumentException("multipart threshold below the part size");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("attempts must be positive");
    }
  }

  /** 32 MiB threshold, 16 MiB parts, 6 attempts from 100 ms up to 5 s. */
  public static S3Options defaults() {
    return new S3Options(32 << 20, 16 << 20, 6, Duration.ofMillis(100), Duration.ofSeconds(5));
  }

  public S3Options withMultipart(long threshold, int partSize) {
    return new S3Options(threshold, partSize, maxAttempts, baseDelay, maxDelay);
  }

  public S3Options withRetries(int maxAttempts, Duration baseDelay, Duration maxDelay) {
    return new S3Options(multipartThreshold, partSize, maxAttempts, baseDelay, maxDelay);
  }
}
