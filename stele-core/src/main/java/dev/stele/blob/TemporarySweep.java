package dev.stele.blob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Removes what writers that crashed mid-create left in a store's {@code .tmp/}: files last modified
 * more than {@link #LIFETIME} before a probe file created now.
 *
 * <p>Why by age: without locks, nothing tells whether another process is still writing a temporary
 * file, and no create lasts a day. Age is measured against the probe rather than a clock because
 * the filesystem stamped every temporary: another host sharing the directory, or a test's clock,
 * cannot make a file being written look old. A writer whose temporary is removed all the same
 * (paused for longer than the lifetime) fails to publish it, loudly; nothing published is touched.
 *
 * <p>Concurrency: {@link #once} sweeps at most once per instance, whichever thread calls first.
 */
final class TemporarySweep {
  static final Duration LIFETIME = Duration.ofDays(1);

  private final Path dir;
  private final AtomicBoolean swept = new AtomicBoolean();

  TemporarySweep(Path dir) {
    this.dir = dir;
  }

  /**
   * Sweeps, the first time only: a store calls this when it first writes, so a command that only
   * reads changes nothing. Failures are ignored; this is housekeeping, and the write that follows
   * reports real trouble itself.
   */
  void once() {
    if (swept.compareAndSet(false, true)) {
      try {
        removeStale();
      } catch (IOException ignored) {
        // the next command that writes tries again
      }
    }
  }

  private void removeStale() throws IOException {
    List<Path> files;
    try (var listing = Files.list(dir)) {
      files = listing.toList();
    } catch (NoSuchFileException e) {
      return;
    }
    if (files.isEmpty()) {
      return; // the usual case: no probe needed
    }
    Path probe = FileSync.writeTemporary(dir, new byte[0], FileSync.Readers.EVERYONE);
    Instant cutoff;
    try {
      cutoff = Files.getLastModifiedTime(probe).toInstant().minus(LIFETIME);
    } finally {
      FileSync.deleteIfExists(probe);
    }
    for (Path file : files) {
      try {
        BasicFileAttributes attrs =
            Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attrs.isRegularFile() && attrs.lastModifiedTime().toInstant().isBefore(cutoff)) {
          FileSync.deleteIfExists(file);
        }
      } catch (NoSuchFileException e) {
        // its writer finished and removed it meanwhile
      }
    }
  }
}
