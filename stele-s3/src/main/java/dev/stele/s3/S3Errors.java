package dev.stele.s3;

import dev.stele.blob.BlobNotFoundException;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/** Turns SDK exceptions into the checked ones of the blob SPI, with the blob's name in front. */
final class S3Errors {
  private S3Errors() {}

  static int status(SdkException e) {
    return e instanceof AwsServiceException s ? s.statusCode() : 0;
  }

  static @Nullable String code(SdkException e) {
    return e instanceof AwsServiceException s && s.awsErrorDetails() != null
        ? s.awsErrorDetails().errorCode()
        : null;
  }

  static boolean notFound(SdkException e) {
    return status(e) == 404;
  }

  /** A failure about {@code what}; 404 on an object becomes {@link BlobNotFoundException}. */
  static IOException io(String what, SdkException e) {
    String code = code(e);
    String detail =
        e instanceof AwsServiceException s
            ? s.statusCode() + (code == null ? "" : " " + code)
            : e.getClass().getSimpleName();
    return new IOException(what + ": " + detail + ": " + e.getMessage(), e);
  }

  static IOException blob(String name, SdkException e) {
    if (notFound(e) && !"NoSuchBucket".equals(code(e))) {
      BlobNotFoundException missing = new BlobNotFoundException(name);
      missing.initCause(e);
      return missing;
    }
    return io(name, e);
  }
}
