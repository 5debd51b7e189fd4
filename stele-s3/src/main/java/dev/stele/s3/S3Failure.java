package dev.stele.s3;

import org.jspecify.annotations.Nullable;

/**
 * A request that failed: either the server's answer (its HTTP status and S3 error code), or no
 * answer at all ({@link #status} 0: refused, reset, timed out, a body cut short).
 *
 * <p>Unchecked, so that a request can be passed around as a lambda ({@link S3Retries.Call}); the
 * store turns it into the blob SPI's checked exceptions at its edge ({@link S3Errors}).
 */
final class S3Failure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final @Nullable String code;

  S3Failure(int status, @Nullable String code, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.status = status;
    this.code = code;
  }

  /** No answer came: {@code cause} says why. */
  static S3Failure noAnswer(String what, Throwable cause) {
    return new S3Failure(0, null, what + ": " + cause, cause);
  }

  /** The HTTP status of the answer, or 0 if none came. */
  int status() {
    return status;
  }

  /** S3's error code ({@code NoSuchKey}, {@code AccessDenied}…), or null. */
  @Nullable String code() {
    return code;
  }
}
