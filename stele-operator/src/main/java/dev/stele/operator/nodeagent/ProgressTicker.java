package dev.stele.operator.nodeagent;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a running backup's or restore's progress every {@code every}: hands {@code done}'s value
 * to {@code sink} when it changed since the last report. A failed report is logged and the next one
 * tried; the final status is written by the reconciler after {@link #close}.
 *
 * <p>Concurrency: owns one named daemon thread, stopped by {@link #close}.
 */
final class ProgressTicker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProgressTicker.class);

  private final ScheduledExecutorService thread;
  private long last = -1;

  @SuppressWarnings("FutureReturnValueIgnored") // the task logs its own failures; close() ends it
  ProgressTicker(String name, Duration every, LongSupplier done, LongConsumer sink) {
    if (every.isZero() || every.isNegative()) {
      thread = null;
      return;
    }
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "stele-progress-" + name);
              t.setDaemon(true);
              return t;
            });
    long millis = Math.max(1, every.toMillis());
    thread.scheduleWithFixedDelay(
        () -> {
          long now = done.getAsLong();
          if (now == last) {
            return;
          }
          try {
            sink.accept(now);
            last = now;
          } catch (RuntimeException e) {
            LOG.warn("progress of {} not written: {}", name, e.getMessage());
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    if (thread == null) {
      return;
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
