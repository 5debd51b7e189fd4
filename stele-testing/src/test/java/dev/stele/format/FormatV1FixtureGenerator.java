package dev.stele.format;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.chunk.ChunkerParams;
import dev.stele.crypto.KdfParams;
import dev.stele.maintenance.Maintenance;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Creates the format-v1 fixture repository that {@link FormatV1FixtureTest} decodes. Run by hand,
 * once; never by the build (the name does not end in {@code Test}). Encryption uses random IVs and
 * the master key is random, so a second run produces different blobs and the literals in the test
 * would have to be updated. Once v1 is released, never regenerate {@code format-v1}: a new format
 * version gets a new directory ({@code format-v2}) and the old fixture stays. (It was regenerated
 * once, before any release, when the AEAD changed from AES-GCM to AES-CTR + HMAC.)
 *
 * <p>Usage, from the repository root, after {@code mvn -o -q -pl stele-testing -am test-compile}:
 *
 * <pre>
 * HOSTNAME=fixture-host java -Duser.name=fixture -cp &lt;test classpath&gt; \
 *     dev.stele.format.FormatV1FixtureGenerator stele-testing/src/test/resources/format-v1
 * </pre>
 *
 * The source tree is built under {@value #SOURCE_ROOT} (recreated each run) because snapshots
 * record absolute paths. See docs/format.md, "Test fixtures".
 */
public final class FormatV1FixtureGenerator {
  static final String SOURCE_ROOT = "/tmp/stele-format-v1";
  static final String PASSWORD = "format-v1 password";
  static final String SECOND_PASSWORD = "format-v1 second password";
  static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private FormatV1FixtureGenerator() {}

  /** The first KDF salt: bytes 0x00..0x0f. */
  static byte[] salt(int first) {
    byte[] salt = new byte[16];
    for (int i = 0; i < salt.length; i++) {
      salt[i] = (byte) (first + i);
    }
    return salt;
  }

  /** The text file's content in the first snapshot (compressible, so stored with zstd). */
  static byte[] helloV1() {
    return "Hello, Stele!\n".repeat(20).getBytes(StandardCharsets.UTF_8);
  }

  /** The text file's content in the second snapshot. */
  static byte[] helloV2() {
    return ("Hello, Stele!\n".repeat(20) + "A second line, added before snapshot two.\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** 5000 incompressible bytes from a fixed seed (stored without compression). */
  static byte[] binary() {
    byte[] data = new byte[5000];
    new Random(20300101L).nextBytes(data);
    return data;
  }

  static byte[] nested() {
    return "nested file\n".getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: FormatV1FixtureGenerator <empty output directory>");
      System.exit(2);
    }
    Path out = Path.of(args[0]).toAbsolutePath();
    Files.createDirectories(out);
    Path data = Path.of(SOURCE_ROOT, "data");
    deleteRecursively(Path.of(SOURCE_ROOT));
    Files.createDirectories(data.resolve("sub"));
    write(data.resolve("hello.txt"), helloV1(), "rw-r--r--", START.minusSeconds(3600));
    write(data.resolve("binary.bin"), binary(), "rw-------", START.minusSeconds(3500));
    write(data.resolve("empty"), new byte[0], "r--r--r--", START.minusSeconds(3400));
    write(data.resolve("sub/nested.txt"), nested(), "rw-r-----", START.minusSeconds(3300));
    Files.createSymbolicLink(data.resolve("link"), Path.of("hello.txt"));
    dir(data.resolve("sub"), "rwxr-x---", START.minusSeconds(3200));
    dir(data, "rwxr-xr-x", START.minusSeconds(3100));
    dir(Path.of(SOURCE_ROOT), "rwxr-xr-x", START.minusSeconds(3000));

    MutableClock clock = new MutableClock(START);
    FilesystemBlobStore store = new FilesystemBlobStore(out, clock);
    RepositoryInit init =
        RepositoryInit.defaults(clock)
            .withChunker(new ChunkerParams(256, 1024, 4096))
            .withPackSize(64 * 1024)
            .withCompressionLevel(3)
            .withWindows(Duration.ofHours(1), Duration.ofHours(6))
            .withKdf(oneLane(salt(0x00)));
    try (Repository repo = Repository.init(store, PASSWORD.toCharArray(), init)) {
      FileBackupOptions options =
          FileBackupOptions.defaults("fixture-host").withThreads(1).withTags(List.of("first"));

      clock.advance(Duration.ofHours(1));
      FileBackup.Result first =
          new FileBackup(repo, options, FileBackupListener.NONE).run(List.of(Path.of(SOURCE_ROOT)));
      System.out.println("snapshot 1: " + first.id().hex());

      write(data.resolve("hello.txt"), helloV2(), "rw-r--r--", START.plusSeconds(3600));
      dir(data, "rwxr-xr-x", START.plusSeconds(3700));
      clock.advance(Duration.ofHours(1));
      FileBackup.Result second =
          new FileBackup(
                  repo,
                  options
                      .withTags(List.of("second", "changed"))
                      .withLabels(Map.of("purpose", "format fixture"))
                      .withParent(first.manifest(), first.id().hex()),
                  FileBackupListener.NONE)
              .run(List.of(Path.of(SOURCE_ROOT)));
      System.out.println("snapshot 2: " + second.id().hex());

      clock.advance(Duration.ofHours(1));
      var tombstone = new SnapshotCatalog(repo).forget(first.id(), "fixture: forget snapshot one");
      System.out.println("tombstone: " + tombstone.hex());

      clock.advance(Duration.ofHours(1));
      String key = repo.addKey(SECOND_PASSWORD.toCharArray(), oneLane(salt(0x10)));
      System.out.println("second key: " + key);

      clock.advance(Duration.ofHours(1));
      Maintenance.Result maintenance = new Maintenance(repo).run(false);
      System.out.println("maintenance: " + maintenance.record());
    }
  }

  private static void write(Path file, byte[] content, String perms, Instant mtime)
      throws IOException {
    Files.write(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms));
    Files.setLastModifiedTime(file, FileTime.from(mtime));
  }

  private static void dir(Path dir, String perms, Instant mtime) throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(perms));
    Files.setLastModifiedTime(dir, FileTime.from(mtime));
  }

  private static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The fixture's KDF: 1024 KiB, one pass, one lane, as docs/format.md lists it. */
  private static KdfParams oneLane(byte[] salt) {
    return new KdfParams("argon2id", 1024, 1, 1, salt);
  }
}
