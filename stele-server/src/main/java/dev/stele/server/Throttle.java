package dev.stele.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Login throttling, per user and per client address: after {@code free} failed logins in a row,
 * each further attempt must wait, twice as long after each failure (1 s, 2 s, 4 s, … up to {@code
 * max}); until then the server answers 429 without checking the password. A success clears the
 * user's count only, so that logging in to an account of one's own does not reset the count of an
 * address guessing at others; a count is forgotten {@code max} after its wait ends. The server
 * sleeps for nobody: a waiting client costs nothing.
 *
 * <p>Concurrency: safe for the server's threads; each count changes atomically.
 */
final class Throttle {
  private record Failures(int count, Instant until) {}

  private final Clock clock;
  private final int free;
  private final Duration max;
  private final Map<String, Failures> failures = new ConcurrentHashMap<>();

  Throttle(Clock clock, int free, Duration max) {
    this.clock = clock;
    this.free = free;
    this.max = max;
  }

  /** How long the user, from this address, must still wait before a login is tried; or zero. */
  Duration wait(String user, String address) {
    Instant now = clock.instant();
    Instant until = later(until("user:" + user), until("address:" + address));
    return now.isBefore(until) ? Duration.between(now, until) : Duration.ZERO;
  }

  void failed(String user, String address) {
    count("user:" + user);
    count("address:" + address);
  }

  void succeeded(String user) {
    failures.remove("user:" + user);
  }

  private void count(String key) {
    Instant now = clock.instant();
    failures.compute(
        key,
        (k, f) -> {
          boolean forgotten = f == null || now.isAfter(f.until().plus(max));
          int n = forgotten ? 1 : f.count() + 1;
          Duration delay = Duration.ZERO;
          if (n >= free) {
            int doublings = Math.min(n - free, 20);
            delay = Duration.ofSeconds(1L << doublings);
            if (delay.compareTo(max) > 0) {
              delay = max;
            }
          }
          return new Failures(n, now.plus(delay));
        });
  }

  private Instant until(String key) {
    Failures f = failures.get(key);
    return f == null ? Instant.MIN : f.until();
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
