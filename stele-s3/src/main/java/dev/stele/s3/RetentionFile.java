package dev.stele.s3;

import dev.stele.blob.Retention;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link KnownRetention} kept on local disk between processes, so that a backup soon after another
 * does not ask the server again for the retention of every pack it reuses. What is kept is what a
 * process read back from the server (or verified at a create), with the instant it was read; a
 * loaded entry is trusted by exactly {@link KnownRetention}'s rule (read at most an hour ago,
 * lasting at least an hour past now), so the file changes how often the server is asked, never what
 * is believed: a retention only grows unless someone sends the GOVERNANCE bypass.
 *
 * <p>The file, one per repository and bucket location, is text in UTF-8:
 *
 * <pre>
 * stele-retention 1 LOCATION                                          (the store's describe())
 * NAME VERSION-ID|- MODE|- UNTIL-EPOCH-SECONDS|- READ-EPOCH-MILLIS     (one line per blob)
 * mac HEX                                                             (HMAC-SHA256 of all above)
 * </pre>
 *
 * The MAC is keyed by a subkey of the repository's master key, so someone who can write the cache
 * directory but does not hold the repository's key cannot make a pack look retained (and so go
 * unextended) or divert an extension to another version. A missing, unreadable, truncated or
 * unauthenticated file is ignored: it only costs requests. It is written to a temporary file and
 * renamed over the old one; of two processes saving at once, the last wins, which again only costs
 * requests.
 *
 * <p>Concurrency: not shared; the store loads it once and saves it once, at close.
 */
final class RetentionFile {
  private static final String HEADER = "stele-retention 1";
  private static final String MAC = "mac ";

  private final Path file;
  private final byte[] key;
  private final String header;

  /** The file for the store at {@code location}: a copy of the bucket elsewhere has its own. */
  RetentionFile(Path file, byte[] key, String location) {
    this.file = file;
    this.key = key.clone();
    this.header = HEADER + " " + location;
  }

  /** The entries saved, or none if the file is missing, damaged or not authenticated. */
  Map<String, KnownRetention.Entry> load() {
    Map<String, KnownRetention.Entry> result = new HashMap<>();
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      int mac = text.lastIndexOf('\n' + MAC);
      if (!text.startsWith(header + '\n') || mac < 0) {
        return Map.of();
      }
      String body = text.substring(0, mac + 1);
      String tag = text.substring(mac + 1 + MAC.length()).strip();
      if (!MessageDigest.isEqual(Hashes.hmacSha256(key, body), HexFormat.of().parseHex(tag))) {
        return Map.of();
      }
      List<String> lines = body.lines().toList();
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.split(" ", -1);
        if (f.length != 5) {
          return Map.of();
        }
        Retention retention =
            f[2].equals("-")
                ? null
                : Retention.of(
                    Retention.Mode.valueOf(f[2]), Instant.ofEpochSecond(Long.parseLong(f[3])));
        result.put(
            f[0],
            new KnownRetention.Entry(
                dash(f[1]), retention, Instant.ofEpochMilli(Long.parseLong(f[4]))));
      }
      return result;
    } catch (IOException | RuntimeException e) {
      return Map.of(); // only a shortcut: the server is asked instead
    }
  }

  /** Writes {@code entries}; a failure is ignored (the next process asks the server). */
  void save(Map<String, KnownRetention.Entry> entries) {
    StringBuilder body = new StringBuilder(header).append('\n');
    entries.forEach(
        (name, e) -> {
          Retention r = e.retention();
          body.append(name)
              .append(' ')
              .append(e.versionId() == null ? "-" : e.versionId())
              .append(' ')
              .append(r == null ? "- -" : r.mode() + " " + r.until().getEpochSecond())
              .append(' ')
              .append(e.read().toEpochMilli())
              .append('\n');
        });
    String text =
        body + MAC + HexFormat.of().formatHex(Hashes.hmacSha256(key, body.toString())) + '\n';
    try {
      Files.createDirectories(file.getParent());
      Path tmp = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".tmp");
      try {
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
          Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException | RuntimeException e) {
      // only a shortcut: the next process asks the server
    }
  }

  private static @Nullable String dash(String field) {
    return field.equals("-") ? null : field;
  }
}
