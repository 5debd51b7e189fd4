package dev.stele.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

/**
 * The demo's sample data: a few hundred text and binary files in nested directories, some
 * duplicated, plus a symbolic link, a hard link, an empty directory, an empty file, odd modes, a
 * non-ASCII name (when the platform encoding allows) and one large file. Seeded, so every run makes
 * the same tree.
 */
final class SampleTree {
  private static final String[] WORDS = {
    "stele", "backup", "snapshot", "chunk", "pack", "index", "write", "once", "retention",
    "immutable", "bucket", "object", "lock", "restore", "tree", "blob", "key", "password",
  };

  private SampleTree() {}

  /** Creates the tree under {@code root}; returns a one-line description of it. */
  static String generate(Path root, long bigFileBytes) throws IOException {
    Random random = new Random(42);
    int files = 0;
    Path docs = Files.createDirectories(root.resolve("docs"));
    for (int d = 0; d < 10; d++) {
      Path dir = Files.createDirectories(docs.resolve("chapter-" + d));
      for (int f = 0; f < 15; f++) {
        Files.writeString(
            dir.resolve("notes-" + f + ".txt"), text(random, 20 + random.nextInt(400)));
        files++;
      }
    }
    Path data = Files.createDirectories(root.resolve("data/blobs"));
    byte[] shared = bytes(random, 48 << 10);
    for (int f = 0; f < 120; f++) {
      byte[] content = f % 10 == 0 ? shared : bytes(random, 1 + random.nextInt(64 << 10));
      Files.write(data.resolve(String.format("blob-%03d.bin", f)), content);
      files++;
    }
    Files.writeString(root.resolve("docs/README.txt"), text(random, 50));
    Files.createSymbolicLink(root.resolve("readme-link"), Path.of("docs/README.txt"));
    Files.createLink(root.resolve("data/hard-link.bin"), data.resolve("blob-001.bin"));
    Files.createDirectories(root.resolve("empty-dir"));
    Files.createFile(root.resolve("empty-file"));
    Path script = root.resolve("run.sh");
    Files.writeString(script, "#!/bin/sh\necho hello from stele\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path secret = root.resolve("secret.txt");
    Files.writeString(secret, "only for me\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    files += 5;
    try {
      Files.writeString(root.resolve("café ünïcødé 文件.txt"), "non-ASCII name\n");
      files++;
    } catch (InvalidPathException e) {
      // the JVM's file name encoding is not UTF-8 (the launcher sets a UTF-8 locale to avoid this)
    }
    Path big = root.resolve("large.bin");
    try (OutputStream out = Files.newOutputStream(big)) {
      byte[] block = new byte[1 << 20];
      for (long written = 0; written < bigFileBytes; written += block.length) {
        random.nextBytes(block);
        out.write(block, 0, (int) Math.min(block.length, bigFileBytes - written));
      }
    }
    files++;
    return files
        + " files, a symbolic link, a hard link, an empty directory, and a "
        + Format.bytes(bigFileBytes)
        + " file";
  }

  private static String text(Random random, int words) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < words; i++) {
      s.append(WORDS[random.nextInt(WORDS.length)]).append(i % 12 == 11 ? '\n' : ' ');
    }
    return s.append('\n').toString();
  }

  private static byte[] bytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
