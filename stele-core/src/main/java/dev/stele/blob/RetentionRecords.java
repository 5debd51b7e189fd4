package dev.stele.blob;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Retention that a filesystem cannot enforce, recorded beside the blobs so that the store can
 * refuse deletes itself.
 *
 * <p>Layout: {@code .retention/<blob name>/<random>.ret}, each record one line {@code MODE
 * ISO-INSTANT}, for example {@code COMPLIANCE 2030-01-01T00:00:00Z}. No directory means no
 * retention.
 *
 * <p>Why a directory of records rather than one file rewritten in place: records are only ever
 * added, each under a fresh name (written to a temporary file, forced, renamed atomically), so two
 * processes that race on one blob — both creating the same content-addressed blob, or both
 * extending it — cannot undo each other, and no lock is needed. The retention in force is the
 * latest instant among the records with the strongest mode among them. A record is pruned once
 * another is at least as long and as strong; pruning never removes a record nothing dominates, so
 * it never shortens what is in force.
 *
 * <p>Concurrency: safe for many threads and processes. A reader that lists a record and then finds
 * it pruned lists again, because the record that dominated it may have arrived after the listing.
 */
final class RetentionRecords {
  private static final String SUFFIX = ".ret";

  private record Entry(Path file, Retention retention) {}

  private final Path dir;
  private final Path temporaries;

  RetentionRecords(Path dir, Path temporaries) {
    this.dir = dir;
    this.temporaries = temporaries;
  }

  /** The retention recorded for {@code name}; {@link Retention#NONE} if none is. */
  Retention read(String name) throws IOException {
    List<Entry> entries = entries(name);
    Retention result = Retention.NONE;
    for (Entry entry : entries) {
      result = strongest(result, entry.retention());
    }
    return result;
  }

  /** Records that {@code name} is retained as {@code retention}; durable when this returns. */
  void add(String name, Retention retention) throws IOException {
    if (retention.isNone()) {
      return;
    }
    String line = retention.mode().name() + " " + retention.until() + "\n";
    Path temp =
        FileSync.writeTemporary(
            temporaries, line.getBytes(StandardCharsets.US_ASCII), FileSync.Readers.EVERYONE);
    try {
      Path records = dir.resolve(name);
      Files.createDirectories(records);
      Files.move(temp, records.resolve(UUID.randomUUID() + SUFFIX), StandardCopyOption.ATOMIC_MOVE);
      FileSync.syncDirectory(records);
    } finally {
      Files.deleteIfExists(temp);
    }
    prune(name);
  }

  /** Forgets {@code name}'s records, once the blob itself is gone. */
  void remove(String name) throws IOException {
    Path records = dir.resolve(name);
    for (Entry entry : entries(name)) {
      Files.deleteIfExists(entry.file());
    }
    try {
      Files.deleteIfExists(records);
    } catch (DirectoryNotEmptyException e) {
      // A record added concurrently for a blob that no longer exists protects nothing; leave it.
    }
  }

  private void prune(String name) throws IOException {
    List<Entry> entries = entries(name);
    for (Entry candidate : entries) {
      for (Entry other : entries) {
        if (!other.equals(candidate) && dominates(other, candidate)) {
          Files.deleteIfExists(candidate.file());
          break;
        }
      }
    }
  }

  /**
   * True if {@code a} makes {@code b} redundant. Equal records are ordered by file name, so that
   * exactly one of a set of equal records survives whoever prunes.
   */
  private static boolean dominates(Entry a, Entry b) {
    Retention ra = a.retention();
    Retention rb = b.retention();
    int until = ra.until().compareTo(rb.until());
    int mode = ra.mode().compareTo(rb.mode());
    if (until < 0 || mode < 0) {
      return false;
    }
    if (until > 0 || mode > 0) {
      return true;
    }
    return a.file().getFileName().toString().compareTo(b.file().getFileName().toString()) < 0;
  }

  // Mode constants are declared weakest first (NONE, GOVERNANCE, COMPLIANCE), so compareTo ranks.
  private static Retention strongest(Retention a, Retention b) {
    if (a.isNone()) {
      return b;
    }
    Retention.Mode mode = a.mode().compareTo(b.mode()) >= 0 ? a.mode() : b.mode();
    Instant until = a.until().isAfter(b.until()) ? a.until() : b.until();
    return Retention.of(mode, until);
  }

  private List<Entry> entries(String name) throws IOException {
    Path records = dir.resolve(name);
    while (true) {
      List<Path> files;
      try (Stream<Path> listing = Files.list(records)) {
        files = listing.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).toList();
      } catch (NoSuchFileException e) {
        return List.of();
      }
      List<Entry> entries = new ArrayList<>(files.size());
      boolean vanished = false;
      for (Path file : files) {
        try {
          entries.add(new Entry(file, parse(file, Files.readString(file))));
        } catch (NoSuchFileException e) {
          vanished = true;
        }
      }
      if (!vanished) {
        return entries;
      }
    }
  }

  private static Retention parse(Path file, String text) throws IOException {
    String[] parts = text.strip().split(" ", -1);
    try {
      if (parts.length == 2) {
        Retention.Mode mode = Retention.Mode.valueOf(parts[0]);
        if (mode != Retention.Mode.NONE) {
          return Retention.of(mode, Instant.parse(parts[1]));
        }
      }
    } catch (IllegalArgumentException | DateTimeParseException e) {
      // fall through: a record we cannot read must stop deletes, not be skipped
    }
    throw new IOException(file + ": unreadable retention record, expected 'MODE ISO-INSTANT'");
  }
}
