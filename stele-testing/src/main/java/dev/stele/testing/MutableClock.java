package dev.stele.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test sets or advances it, so that retention and time windows
 * can be tested without sleeping.
 *
 * <p>Concurrency: safe to read and move from any thread; clocks made by {@link #withZone} share the
 * same instant.
 */
public final class MutableClock extends Clock {
  /** Where a new clock starts unless told otherwise: an arbitrary but fixed instant. */
  public static final Instant DEFAULT_START = Instant.parse("2030-01-01T00:00:00Z");

  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  public MutableClock() {
    this(DEFAULT_START);
  }

  public MutableClock(Instant start) {
    this(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
  }

  private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  /** Sets the time; moving backwards is allowed, since tests of clock skew need it. */
  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  /** Moves the time forward by {@code duration} and returns the new instant. */
  public Instant advance(Duration duration) {
    return now.updateAndGet(i -> i.plus(duration));
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return new MutableClock(now, zone);
  }

  @Override
  public String toString() {
    return "MutableClock[" + now.get() + "]";
  }
}
