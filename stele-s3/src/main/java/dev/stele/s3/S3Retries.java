package dev.stele.s3;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Random;
import java.util.Set;

/**
 * Retries of the requests the store sends itself: which failures are worth another attempt, and how
 * long to wait before it (exponential backoff with full jitter, so that many writers throttled
 * together do not come back together).
 *
 * <p>Only idempotent requests go through {@link #call}. A create is not idempotent on a versioned
 * bucket — a repeated PUT makes a second version — so {@link S3BlobStore} drives its own loop with
 * {@link #retryable} and {@link #pause}, and looks at the bucket before each new attempt.
 *
 * <p>Concurrency: safe for many threads ({@link Random} is).
 */
final class S3Retries {
  /** A request, which fails with an unchecked {@link S3Failure}. */
  interface Call<T> {
    T call();
  }

  /** Waits; replaced in tests. */
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private static final Set<String> RETRYABLE_CODES =
      Set.of(
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "RequestThrottled",
          "RequestLimitExceeded",
          "TooManyRequestsException",
          "RequestTimeout",
          "RequestTimeoutException",
          "InternalError",
          "ServiceUnavailable",
          // Concurrent conditional writes on AWS; the loser may try again.
          "ConditionalRequestConflict");

  private final int maxAttempts;
  private final Duration baseDelay;
  private final Duration maxDelay;
  private final Random random;
  private final Sleeper sleeper;

  S3Retries(
      int maxAttempts, Duration baseDelay, Duration maxDelay, Random random, Sleeper sleeper) {
    this.maxAttempts = maxAttempts;
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.random = random;
    this.sleeper = sleeper;
  }

  static S3Retries of(S3Options options) {
    return new S3Retries(
        options.maxAttempts(),
        options.baseDelay(),
        options.maxDelay(),
        new Random(),
        d -> Thread.sleep(d.toMillis()));
  }

  int maxAttempts() {
    return maxAttempts;
  }

  /**
   * True for failures that may pass by themselves: throttling, 5xx, timeouts and broken
   * connections. Never for other 4xx: a refused or malformed request fails the same way again.
   */
  static boolean retryable(S3Failure e) {
    int status = e.status();
    String code = e.code();
    if (status == 0) {
      // No answer: I/O errors, timeouts, a connection reset. A failure of our own with a code
      // (no credentials) would only fail again.
      return code == null;
    }
    return status >= 500 || status == 429 || (code != null && RETRYABLE_CODES.contains(code));
  }

  /**
   * The wait before attempt {@code attempt + 1}: uniform in [0, min(max, base * 2^(attempt-1))].
   */
  Duration delay(int attempt) {
    long base = baseDelay.toMillis();
    long cap = maxDelay.toMillis();
    long ceiling = attempt >= 31 ? cap : Math.min(cap, base << (attempt - 1));
    long millis;
    synchronized (random) {
      millis = ceiling <= 0 ? 0 : (long) (random.nextDouble() * (ceiling + 1));
    }
    return Duration.ofMillis(millis);
  }

  /** Waits before the attempt after {@code attempt} (counted from 1). */
  void pause(int attempt) throws InterruptedIOException {
    try {
      sleeper.sleep(delay(attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException io = new InterruptedIOException("interrupted while backing off");
      io.initCause(e);
      throw io;
    }
  }

  /**
   * Runs an idempotent request, again after a retryable failure, up to the attempt limit; the last
   * failure is thrown as it came.
   */
  <T> T call(Call<T> call) throws InterruptedIOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.call();
      } catch (S3Failure e) {
        if (attempt >= maxAttempts || !retryable(e)) {
          throw e;
        }
        pause(attempt);
      }
    }
  }
}
