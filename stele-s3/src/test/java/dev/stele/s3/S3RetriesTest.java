package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class S3RetriesTest {
  private final List<Duration> slept = new ArrayList<>();
  private final S3Retries retries =
      new S3Retries(4, Duration.ofMillis(100), Duration.ofMillis(1000), new Random(1), slept::add);

  private static S3Failure error(int status, String code) {
    return new S3Failure(status, code, code, null);
  }

  @Test
  void throttlingServerErrorsAndTimeoutsAreRetryable() {
    assertThat(S3Retries.retryable(error(503, "SlowDown"))).isTrue();
    assertThat(S3Retries.retryable(error(500, "InternalError"))).isTrue();
    assertThat(S3Retries.retryable(error(429, "TooManyRequests"))).isTrue();
    assertThat(S3Retries.retryable(error(400, "RequestTimeout"))).isTrue();
    assertThat(S3Retries.retryable(error(409, "ConditionalRequestConflict"))).isTrue();
    assertThat(S3Retries.retryable(S3Failure.noAnswer("GetObject", new IOException("timed out"))))
        .isTrue();
  }

  @Test
  void refusalsAreNotRetryable() {
    assertThat(S3Retries.retryable(error(403, "AccessDenied"))).isFalse();
    assertThat(S3Retries.retryable(error(404, "NoSuchKey"))).isFalse();
    assertThat(S3Retries.retryable(error(412, "PreconditionFailed"))).isFalse();
    assertThat(S3Retries.retryable(error(400, "InvalidArgument"))).isFalse();
    assertThat(S3Retries.retryable(new S3Failure(0, "NoCredentials", "no AWS credentials", null)))
        .as("a failure of our own, with a code")
        .isFalse();
  }

  @Test
  void backoffIsJitteredUnderAnExponentialCeiling() {
    for (int attempt = 1; attempt <= 40; attempt++) {
      long ceiling = Math.min(1000, 100L << Math.min(attempt - 1, 20));
      for (int i = 0; i < 50; i++) {
        assertThat(retries.delay(attempt).toMillis()).isBetween(0L, ceiling);
      }
    }
    long distinct =
        java.util.stream.IntStream.range(0, 50).mapToObj(i -> retries.delay(5)).distinct().count();
    assertThat(distinct).as("jitter").isGreaterThan(10);
  }

  @Test
  void callRetriesUntilSuccessWithinTheAttemptLimit() throws IOException {
    AtomicInteger calls = new AtomicInteger();
    String result =
        retries.call(
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw error(503, "SlowDown");
              }
              return "done";
            });
    assertThat(result).isEqualTo("done");
    assertThat(calls).hasValue(3);
    assertThat(slept).hasSize(2);
  }

  @Test
  void callGivesUpAfterTheLimitAndAtOnceOnRefusal() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                retries.call(
                    () -> {
                      calls.incrementAndGet();
                      throw error(500, "InternalError");
                    }))
        .isInstanceOf(S3Failure.class);
    assertThat(calls).hasValue(4);
    calls.set(0);
    assertThatThrownBy(
            () ->
                retries.call(
                    () -> {
                      calls.incrementAndGet();
                      throw error(403, "AccessDenied");
                    }))
        .isInstanceOf(S3Failure.class);
    assertThat(calls).hasValue(1);
  }
}
