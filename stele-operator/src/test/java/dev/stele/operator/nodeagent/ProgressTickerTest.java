package dev.stele.operator.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTickerTest {
  private static final Duration TICK = Duration.ofMillis(2);

  /**
   * Runs a ticker of its own until it has ticked {@code times} times: the sign that a ticker which
   * should have been silent meanwhile had its chance to tick.
   */
  @SuppressWarnings("try") // the ticker runs until closed
  static void letATickerTick(int times) {
    AtomicInteger ticks = new AtomicInteger();
    try (ProgressTicker witness =
        new ProgressTicker("witness", TICK, ticks::incrementAndGet, d -> {})) {
      Await.until("a running ticker to tick " + times + " times", () -> ticks.get() >= times);
    }
  }

  @SuppressWarnings("try") // the ticker runs until closed
  @Test
  void reportsEachNewValueOnceRetriesAFailedReportAndStopsWhenClosed() {
    AtomicLong done = new AtomicLong(10);
    AtomicInteger reads = new AtomicInteger();
    List<Long> reported = new CopyOnWriteArrayList<>();
    AtomicBoolean refuseNext = new AtomicBoolean();
    try (ProgressTicker ticker =
        new ProgressTicker(
            "test",
            TICK,
            () -> {
              reads.incrementAndGet();
              return done.get();
            },
            d -> {
              if (refuseNext.getAndSet(false)) {
                throw new IllegalStateException("API server unavailable (test)");
              }
              reported.add(d);
            })) {
      Await.until("10 reported", () -> reported.contains(10L));
      int seen = reads.get();
      Await.until("three more ticks", () -> reads.get() >= seen + 3);
      assertThat(reported).containsExactly(10L);
      refuseNext.set(true);
      done.set(20);
      Await.until("20 reported", () -> reported.contains(20L));
      assertThat(refuseNext).isFalse();
      assertThat(reported).containsExactly(10L, 20L);
    }
    int closed = reads.get();
    done.set(30);
    letATickerTick(3);
    assertThat(reads).hasValue(closed);
    assertThat(reported).containsExactly(10L, 20L);
  }

  @SuppressWarnings("try") // the ticker runs until closed
  @Test
  void aZeroIntervalReportsNothing() {
    AtomicInteger reads = new AtomicInteger();
    List<Long> reported = new CopyOnWriteArrayList<>();
    try (ProgressTicker ticker =
        new ProgressTicker("none", Duration.ZERO, reads::incrementAndGet, reported::add)) {
      letATickerTick(3);
    }
    assertThat(reads).hasValue(0);
    assertThat(reported).isEmpty();
  }
}
