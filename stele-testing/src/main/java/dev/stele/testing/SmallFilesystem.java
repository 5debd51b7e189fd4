package dev.stele.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real, small filesystem (tmpfs) mounted on a directory, so that tests meet a full disk or a
 * read-only filesystem the way users do: the kernel refuses, not a fake. Mounting needs root, which
 * the tests have here and in CI; without it {@link #mount} fails with the reason rather than
 * letting a test pass unchecked.
 */
public final class SmallFilesystem implements AutoCloseable {
  /** tmpfs allocates file data in pages of this size. */
  public static final int PAGE = 4096;

  private final Path dir;
  private final Path filler;

  private SmallFilesystem(Path dir) {
    this.dir = dir;
    this.filler = dir.resolve("filler");
  }

  /** Mounts a tmpfs of {@code bytes} on {@code dir}, which must exist and be empty. */
  public static SmallFilesystem mount(Path dir, long bytes) throws IOException {
    run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", dir.toString());
    return new SmallFilesystem(dir);
  }

  public Path dir() {
    return dir;
  }

  /** Fills the filesystem up, then frees {@code pages} pages of it again. */
  public void fillLeaving(int pages) throws IOException {
    Files.deleteIfExists(filler);
    ByteBuffer block = ByteBuffer.allocate(1 << 16);
    try (FileChannel out =
        FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      try {
        while (true) {
          out.write(block.clear());
        }
      } catch (IOException full) {
        // as intended
      }
      out.truncate(Math.max(0, out.size() - (long) pages * PAGE));
    }
  }

  /** Frees what {@link #fillLeaving} took. */
  public void free() throws IOException {
    Files.deleteIfExists(filler);
  }

  public void readOnly(boolean readOnly) throws IOException {
    run("mount", "-o", "remount," + (readOnly ? "ro" : "rw"), dir.toString());
  }

  @Override
  public void close() throws IOException {
    run("umount", dir.toString());
  }

  private static void run(String... command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + ": timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(String.join(" ", command) + ": interrupted", e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", List.of(command))
              + " failed (tests that fill a disk need root): "
              + output.strip());
    }
  }
}
