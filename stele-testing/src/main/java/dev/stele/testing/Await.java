package dev.stele.testing;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits in tests for something another thread or process does: polls a probe until its value is
 * what the test waits for, or fails after a timeout with a message that names what was awaited and
 * the last value seen. Tests use it instead of sleeping a guessed time, which is slow when the
 * guess is generous and flaky when it is not.
 *
 * <p>A test that checks that something did <em>not</em> happen awaits a positive sign that the code
 * under test has run (a later event, a status field, a counter) and only then asserts; waiting for
 * nothing proves nothing.
 *
 * <pre>{@code
 * Await.until("the repository Ready", () -> repository().getStatus(), s -> s.phase == READY);
 * Await.atMost(Duration.ofMinutes(2)).showing(this::stderr).until("the agent ready", this::ready);
 * }</pre>
 *
 * <p>A probe that returns null has not got there yet; a probe that throws fails the wait at once,
 * with its exception as the cause. The probe is polled first at once, then at intervals growing
 * from a millisecond to {@link #MAX_INTERVAL}.
 *
 * <p>Concurrency: waits on the calling thread; an interrupt fails the wait and keeps the thread's
 * interrupt status. A {@link Policy} is immutable.
 */
public final class Await {
  /** How long {@link #until} waits unless told otherwise: ample for a loaded machine. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** The longest pause between two polls. */
  public static final Duration MAX_INTERVAL = Duration.ofMillis(100);

  /** What a wait polls; may throw, which fails the wait. */
  @FunctionalInterface
  public interface Probe<T> {
    T get() throws Exception;
  }

  /** A condition a wait polls until it holds; may throw, which fails the wait. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  private Await() {}

  /** Waits up to {@link #DEFAULT_TIMEOUT} until {@code condition} holds. */
  public static void until(String what, Condition condition) {
    atMost(DEFAULT_TIMEOUT).until(what, condition);
  }

  /**
   * Waits up to {@link #DEFAULT_TIMEOUT} until {@code probe} returns a value {@code done} accepts.
   *
   * @return that value
   */
  public static <T> T until(String what, Probe<T> probe, Predicate<? super T> done) {
    return atMost(DEFAULT_TIMEOUT).until(what, probe, done);
  }

  /** A wait of at most {@code timeout}. */
  public static Policy atMost(Duration timeout) {
    return new Policy(timeout, () -> null);
  }

  /** How long to wait, and what else to show when the wait fails. */
  public static final class Policy {
    private final Duration timeout;
    private final Supplier<?> context;

    private Policy(Duration timeout, Supplier<?> context) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.timeout = timeout;
      this.context = Objects.requireNonNull(context, "context");
    }

    /**
     * This wait, whose failure message also shows {@code context} as it is when the wait fails
     * (say, a process's standard error).
     */
    public Policy showing(Supplier<?> context) {
      return new Policy(timeout, context);
    }

    /** Waits until {@code condition} holds. */
    public void until(String what, Condition condition) {
      until(what, () -> condition.holds() ? Boolean.TRUE : Boolean.FALSE, Boolean::booleanValue);
    }

    /**
     * Waits until {@code probe} returns a value {@code done} accepts.
     *
     * @return that value
     */
    public <T> T until(String what, Probe<T> probe, Predicate<? super T> done) {
      long start = System.nanoTime();
      long pause = 1;
      T last = null;
      while (true) {
        try {
          last = probe.get();
        } catch (Exception e) {
          throw new AssertionError("awaiting " + what + ": the probe failed" + shown(), e);
        }
        if (last != null && done.test(last)) {
          return last;
        }
        long left = timeout.toNanos() - (System.nanoTime() - start);
        if (left <= 0) {
          throw new AssertionError(
              "timed out after "
                  + timeout
                  + " awaiting "
                  + what
                  + "; last seen: "
                  + last
                  + shown());
        }
        try {
          Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted awaiting " + what + "; last seen: " + last, e);
        }
        pause = Math.min(pause * 2, MAX_INTERVAL.toMillis());
      }
    }

    private String shown() {
      Object shown = context.get();
      return shown == null ? "" : "; " + shown;
    }
  }
}
