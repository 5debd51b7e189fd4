package dev.stele.s3;

import dev.stele.blob.Retention;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What a store read back of each blob's retention in this process, so that a check right after a
 * create, or an extension right after a check, does not ask the server again.
 *
 * <p>Two facts per blob name. The id of the version Stele created, which never changes (a create
 * never replaces, a name is never reused). And the retention that version had when last read: a
 * lower bound of what is in force, since a retention only ever grows unless someone sends the
 * GOVERNANCE bypass, which Stele never does.
 *
 * <p>A retention read is <em>trusted</em> — answered without a request — while it was read at most
 * {@link #MAX_AGE} ago and its retain-until is at least {@link #MARGIN} ahead of now. The margin is
 * for the server's clock, which decides when a version stops being retained and may be deleted:
 * SigV4 refuses requests whose clock is more than 15 minutes off, so an hour is four times the
 * worst skew any request that worked can have had. The age bound limits what a GOVERNANCE bypass by
 * someone else could hide from a long-lived process: after an hour, it reads again. A command line
 * carries these entries to the next command in a {@link RetentionFile}, under the same rule.
 *
 * <p>Concurrency: safe for many threads; each name's entry is replaced whole.
 */
final class KnownRetention {
  static final Duration MARGIN = Duration.ofHours(1);
  static final Duration MAX_AGE = Duration.ofHours(1);

  /** One blob's facts: its original version, and the retention last read of it, at {@code read}. */
  record Entry(@Nullable String versionId, @Nullable Retention retention, Instant read) {}

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final Clock clock;

  KnownRetention(Clock clock) {
    this.clock = clock;
  }

  /** Records that {@code name}'s original version is {@code versionId}. */
  void rememberVersion(String name, String versionId) {
    entries.compute(
        name,
        (k, old) ->
            old != null && versionId.equals(old.versionId())
                ? old
                : new Entry(versionId, null, clock.instant()));
  }

  /** Records the retention just read back from version {@code versionId} (null: unversioned). */
  void remember(String name, @Nullable String versionId, Retention retention) {
    entries.put(name, new Entry(versionId, retention, clock.instant()));
  }

  /** The id of {@code name}'s original version, if known. */
  @Nullable String versionId(String name) {
    Entry e = entries.get(name);
    return e == null ? null : e.versionId();
  }

  /** The retention last read of {@code name} if not older than {@link #MAX_AGE}, else null. */
  @Nullable Retention recent(String name) {
    Entry e = entries.get(name);
    if (e == null || e.retention() == null || !fresh(e, clock.instant())) {
      return null;
    }
    return e.retention();
  }

  /** The retention last read of {@code name} if it can stand for the server's answer now. */
  @Nullable Retention trusted(String name) {
    Retention r = recent(name);
    return r != null && r.lastsUntil(clock.instant().plus(MARGIN)) ? r : null;
  }

  private static boolean fresh(Entry e, Instant now) {
    return !e.read().plus(MAX_AGE).isBefore(now);
  }

  void forget(String name) {
    entries.remove(name);
  }

  /**
   * Takes what an earlier process recorded ({@link RetentionFile}), keeping what this one knows
   * already. An entry read longer than {@link #MAX_AGE} ago, or after now (a clock set back), is
   * dropped: it is trusted by exactly the rule above, never longer.
   */
  void adopt(Map<String, Entry> saved) {
    Instant now = clock.instant();
    saved.forEach(
        (name, e) -> {
          if (!e.read().isAfter(now) && fresh(e, now)) {
            entries.putIfAbsent(name, e);
          }
        });
  }

  /** Every entry not older than {@link #MAX_AGE}, for {@link RetentionFile} to save. */
  Map<String, Entry> current() {
    Instant now = clock.instant();
    Map<String, Entry> result = new TreeMap<>();
    entries.forEach(
        (name, e) -> {
          if (fresh(e, now)) {
            result.put(name, e);
          }
        });
    return result;
  }
}
