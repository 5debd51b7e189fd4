package dev.stele.server;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns refusals into Warning Events, few enough that a guessing client cannot flood the API
 * server: the refusals of one reason for one user within a minute are one Event whose count grows.
 * {@link #refused} only counts; {@link #flush}, run every few seconds by the server's own thread,
 * creates each new Event and updates each whose count grew, so at most one call per Event per
 * flush. Beyond {@value #MAX_USERS} users refused in a minute, the rest of that reason share one
 * Event, so that guessing at many user names is no way around the limit either.
 *
 * <p>Concurrency: {@link #refused} is called by the request threads and {@link #flush} by one
 * other; both hold the instance's lock, but never while the sink is called.
 */
final class RefusalEvents {
  static final Duration WINDOW = Duration.ofMinutes(1);
  static final int MAX_USERS = 20;
  private static final int MAX_MESSAGE = 1024;

  /** The refusals of one reason for one user in the current window. */
  private static final class Pending {
    final String id;
    final String reason;
    final Instant first;
    Instant last;
    String message;
    int count;
    int posted;

    Pending(String id, String reason, Instant first, String message) {
      this.id = id;
      this.reason = reason;
      this.first = first;
      this.last = first;
      this.message = message;
    }

    RefusalEvent event() {
      return new RefusalEvent(id, reason, message, count, first, last);
    }
  }

  private final EventSink sink;
  private final Clock clock;
  private final Map<String, Pending> open = new LinkedHashMap<>();
  private final List<Pending> closing = new ArrayList<>();
  private long made;

  RefusalEvents(EventSink sink, Clock clock) {
    this.sink = sink;
    this.clock = clock;
  }

  /**
   * The reason of the Event a refusal makes, or null for those that make none: a malformed request,
   * a method not allowed, an expired session (a person coming back to an open page).
   */
  static @Nullable String reason(String action, int status, String line) {
    if (status == 429 || (status == 401 && action.equals("login"))) {
      return "LoginRefused";
    }
    if (status == 403
        || (status == 404 && line.startsWith("no such ") && !line.endsWith("endpoint"))) {
      return "AccessRefused";
    }
    return null;
  }

  /** Counts one refusal of {@code reason} for {@code user} (null before a login). */
  synchronized void refused(
      String reason, @Nullable String user, String address, String asked, String line) {
    Instant now = clock.instant();
    String who = user == null ? "(no user)" : clip(user, 64);
    String key = reason + "\0" + who;
    Pending p = open.get(key);
    if (p != null && !now.isBefore(p.first.plus(WINDOW))) {
      closing.add(open.remove(key));
      p = null;
    }
    if (p == null && open.size() >= MAX_USERS) {
      who = "(more users)";
      key = reason + "\0" + who;
      p = open.get(key);
    }
    String message = clip(who + " from " + address + ": " + asked + ": " + line, MAX_MESSAGE);
    if (p == null) {
      p =
          new Pending(
              Long.toHexString(now.toEpochMilli()) + Long.toHexString(made++),
              reason,
              now,
              message);
      open.put(key, p);
    }
    p.count++;
    p.last = now;
    p.message = message;
  }

  /**
   * Sends what changed since the last flush to the sink, and forgets the windows that ended. A
   * failing sink is said on standard error; what it missed is tried again next time.
   */
  void flush() {
    List<Pending> due = new ArrayList<>();
    List<RefusalEvent> events = new ArrayList<>();
    synchronized (this) {
      Instant now = clock.instant();
      for (Iterator<Pending> it = open.values().iterator(); it.hasNext(); ) {
        Pending p = it.next();
        if (!now.isBefore(p.first.plus(WINDOW))) {
          closing.add(p);
          it.remove();
        }
      }
      closing.removeIf(p -> p.count == p.posted); // ended, and its last count sent
      for (Pending p : closing) {
        due.add(p);
      }
      for (Pending p : open.values()) {
        if (p.count > p.posted) {
          due.add(p);
        }
      }
      due.forEach(p -> events.add(p.event()));
    }
    for (int i = 0; i < due.size(); i++) {
      RefusalEvent e = events.get(i);
      try {
        sink.warning(e);
      } catch (IOException | RuntimeException x) {
        System.err.println("could not record the Event " + e.reason() + ": " + x.getMessage());
        return;
      }
      synchronized (this) {
        due.get(i).posted = e.count();
      }
    }
  }

  private static String clip(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}
