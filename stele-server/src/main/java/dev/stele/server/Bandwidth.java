package dev.stele.server;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-user bandwidth limits: a user's answers, all of them at once, go out no faster than their
 * rate. Each user has one line; every write reserves its time on it ({@code bytes / rate}) after
 * what the user's earlier writes reserved, and waits until those have had their time. So two
 * downloads side by side share the rate rather than having it each, and a user idle for a while
 * does not save up a burst: the line is never reserved into the past. Writes are cut into pieces of
 * a twentieth of a second's worth, so the pacing is even.
 *
 * <p>Concurrency: safe for the server's threads; a line's reservations change under its lock, the
 * waiting is done outside it.
 */
final class Bandwidth {
  /**
   * Waits, as {@code Thread.sleep}; injected so that tests count the pacing instead of timing it.
   */
  interface Pause {
    void pause(Duration d) throws InterruptedException;
  }

  private static final int SMALLEST_PIECE = 1024;

  private final Clock clock;
  private final Pause pause;
  private final Map<String, Line> lines = new ConcurrentHashMap<>();

  Bandwidth(Clock clock, Pause pause) {
    this.clock = clock;
    this.pause = pause;
  }

  /** {@code out}, its writes paced at {@code bytesPerSecond} on {@code user}'s line. */
  OutputStream limit(String user, long bytesPerSecond, OutputStream out) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("a rate must be positive: " + bytesPerSecond);
    }
    Line line = lines.computeIfAbsent(user, u -> new Line());
    int piece = (int) Math.min(1 << 20, Math.max(SMALLEST_PIECE, bytesPerSecond / 20));
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        for (int done = 0; done < len; ) {
          int n = Math.min(piece, len - done);
          await(line.reserve(n, bytesPerSecond, clock.instant()));
          out.write(b, off + done, n);
          done += n;
        }
      }
    };
  }

  private void await(Duration d) throws InterruptedIOException {
    if (d.isNegative() || d.isZero()) {
      return;
    }
    try {
      pause.pause(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while pacing an answer");
    }
  }

  /** One user's line: when what has been reserved on it ends. */
  private static final class Line {
    private Instant free = Instant.MIN;

    /** Reserves {@code bytes}' time; gives how long to wait before sending them. */
    synchronized Duration reserve(long bytes, long rate, Instant now) {
      Instant start = free.isAfter(now) ? free : now;
      free = start.plusNanos(Math.multiplyExact(bytes, 1_000_000_000L) / rate);
      return Duration.between(now, start);
    }
  }
}
