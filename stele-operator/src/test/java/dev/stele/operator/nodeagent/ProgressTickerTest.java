package dev.stele.operator.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class ProgressTickerTest {
  static void await(BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime()).as("timed out").isLessThan(deadline);
      Thread.sleep(2);
    }
  }

  @SuppressWarnings("try") // the ticker runs until closed
  @Test
  void reportsEachNewValueOnceRetriesAFailedReportAndStopsWhenClosed() throws Exception {
    AtomicLong done = new AtomicLong(10);
    List<Long> reported = new CopyOnWriteArrayList<>();
    AtomicBoolean refuseNext = new AtomicBoolean();
    try (ProgressTicker ticker =
        new ProgressTicker(
            "test",
            Duration.ofMillis(2),
            done::get,
            d -> {
              if (refuseNext.getAndSet(false)) {
                throw new IllegalStateException("API server unavailable (test)");
              }
              reported.add(d);
            })) {
      await(() -> reported.contains(10L));
      Thread.sleep(30);
      assertThat(reported).containsExactly(10L);
      refuseNext.set(true);
      done.set(20);
      await(() -> reported.contains(20L));
      assertThat(refuseNext).isFalse();
      assertThat(reported).containsExactly(10L, 20L);
    }
    done.set(30);
    Thread.sleep(30);
    assertThat(reported).containsExactly(10L, 20L);
  }

  @SuppressWarnings("try") // the ticker runs until closed
  @Test
  void aZeroIntervalReportsNothing() throws Exception {
    List<Long> reported = new CopyOnWriteArrayList<>();
    try (ProgressTicker ticker =
        new ProgressTicker("none", Duration.ZERO, () -> 1, reported::add)) {
      Thread.sleep(20);
    }
    assertThat(reported).isEmpty();
  }
}
