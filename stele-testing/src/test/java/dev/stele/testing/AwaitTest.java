package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

  @Test
  void returnsTheFirstValueThatIsDone() {
    AtomicInteger polls = new AtomicInteger();
    int value = Await.until("the third poll", polls::incrementAndGet, n -> n >= 3);
    assertThat(value).isEqualTo(3);
    assertThat(polls).hasValue(3);
  }

  @Test
  void aConditionThatHoldsAlreadyIsPolledOnce() {
    AtomicInteger polls = new AtomicInteger();
    Await.until("true", () -> polls.incrementAndGet() > 0);
    assertThat(polls).hasValue(1);
  }

  @Test
  void nullIsNotDoneYet() {
    AtomicInteger polls = new AtomicInteger();
    String value =
        Await.until("a value", () -> polls.incrementAndGet() < 3 ? null : "here", s -> true);
    assertThat(value).isEqualTo("here");
  }

  @Test
  void aTimeoutSaysWhatWasAwaitedTheLastValueAndTheContext() {
    AtomicInteger polls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Await.atMost(Duration.ofMillis(50))
                    .showing(() -> "stderr: boom")
                    .until("the counter at -1", polls::incrementAndGet, n -> n < 0))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("timed out after PT0.05S awaiting the counter at -1; last seen: ")
        .hasMessageEndingWith("; stderr: boom");
    assertThat(polls.get()).isGreaterThan(1);
  }

  @Test
  void aProbeThatThrowsFailsAtOnceWithItsCause() {
    AtomicInteger polls = new AtomicInteger();
    IOException refused = new IOException("connection refused");
    assertThatThrownBy(
            () ->
                Await.until(
                    "the server",
                    () -> {
                      polls.incrementAndGet();
                      throw refused;
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessage("awaiting the server: the probe failed")
        .hasCause(refused);
    assertThat(polls).hasValue(1);
  }

  @Test
  void anInterruptFailsTheWaitAndKeepsTheInterruptStatus() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Await.until("never", () -> false))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("interrupted awaiting never");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void aTimeoutMustBePositive() {
    assertThatThrownBy(() -> Await.atMost(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
