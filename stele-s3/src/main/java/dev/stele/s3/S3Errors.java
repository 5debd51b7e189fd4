package dev.stele.s3;

import dev.stele.blob.BlobNotFoundException;
import java.io.IOException;

/**
 * Turns {@link S3Failure}s into the checked exceptions of the blob SPI, the blob's name in front.
 */
final class S3Errors {
  private S3Errors() {}

  static boolean notFound(S3Failure e) {
    return e.status() == 404;
  }

  /** A failure about {@code what}; 404 on an object becomes {@link BlobNotFoundException}. */
  static IOException io(String what, S3Failure e) {
    String detail =
        e.status() != 0
            ? e.status() + (e.code() == null ? "" : " " + e.code()) + ": "
            : e.code() == null ? "no answer: " : ""; // a failure of our own says it all
    return new IOException(what + ": " + detail + e.getMessage(), e);
  }

  static IOException blob(String name, S3Failure e) {
    if (notFound(e) && !"NoSuchBucket".equals(e.code())) {
      BlobNotFoundException missing = new BlobNotFoundException(name);
      missing.initCause(e);
      return missing;
    }
    return io(name, e);
  }
}
