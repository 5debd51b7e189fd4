package dev.stele.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One self-updating line on standard error — files, bytes, rate and, when the total is known, an
 * ETA — redrawn a few times a second while a long command runs. Off a terminal it draws nothing.
 * Warnings printed through {@link #println} clear the line first so they are not garbled.
 *
 * <p>Concurrency: counters are atomic and may be bumped from any worker thread; drawing happens on
 * one owned daemon thread ({@code stele-progress}) and under this object's lock.
 */
final class Progress implements AutoCloseable {
  private static final long PERIOD_MILLIS = 250;

  private final String verb;
  private final PrintWriter err;
  private final ScheduledExecutorService ticker;
  private final long started = System.nanoTime();
  final AtomicLong files = new AtomicLong();
  final AtomicLong bytes = new AtomicLong();
  final AtomicLong totalBytes = new AtomicLong(-1);
  private boolean drawn;
  private boolean closed;

  private Progress(String verb, CliEnvironment env) {
    this.verb = verb;
    this.err = env.err();
    if (env.interactive()) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "stele-progress");
                t.setDaemon(true);
                return t;
              });
      var unused =
          ticker.scheduleAtFixedRate(
              this::draw, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    } else {
      ticker = null;
    }
  }

  /** Starts a progress line such as "backup: 12 files, 3.4 MiB, 20 MiB/s". */
  static Progress start(String verb, CliEnvironment env) {
    return new Progress(verb, env);
  }

  /** Prints a line (a warning, say) above the progress line. */
  synchronized void println(String line) {
    clear();
    err.println(line);
    err.flush();
  }

  synchronized void draw() {
    if (closed) {
      return;
    }
    err.print("\r" + line() + "\033[K");
    err.flush();
    drawn = true;
  }

  String line() {
    double seconds = (System.nanoTime() - started) / 1e9;
    long done = bytes.get();
    long total = totalBytes.get();
    StringBuilder s = new StringBuilder(verb).append(": ");
    if (!verb.equals("verify")) {
      s.append(files.get()).append(" files, ");
    }
    s.append(Format.bytes(done));
    if (total > 0) {
      s.append(" of ")
          .append(Format.bytes(total))
          .append(String.format(Locale.ROOT, " (%.0f%%)", Math.min(100.0, 100.0 * done / total)));
    }
    s.append(", ").append(Format.rate(done, seconds));
    if (total > 0 && done > 0 && done < total && seconds > 1) {
      double remaining = (total - done) / (done / seconds);
      s.append(", ETA ").append(Format.duration(Duration.ofSeconds((long) remaining)));
    }
    return s.toString();
  }

  private void clear() {
    if (drawn) {
      err.print("\r\033[K");
      drawn = false;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (ticker != null) {
      ticker.shutdownNow();
    }
    clear();
    err.flush();
  }
}
