package dev.stele.blob;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

/** Small filesystem helpers for writing files durably: write, fsync, publish, fsync the parent. */
final class FileSync {
  private static final Set<PosixFilePermission> READ_ONLY =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.OTHERS_READ);

  private FileSync() {}

  /** Largest single read or write handed to a channel. */
  static final int IO_SLICE = 1 << 20;

  /** Writes {@code data} to a new, uniquely named file in {@code dir} and forces it to disk. */
  static Path writeTemporary(Path dir, byte[] data) throws IOException {
    Files.createDirectories(dir);
    Path temp = dir.resolve(UUID.randomUUID() + ".tmp");
    try (FileChannel out =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      // In slices: the JDK copies a heap buffer into a temporary direct buffer of the same size
      // and caches it per thread, so one 16 MiB write would pin 16 MiB of native memory.
      ByteBuffer buffer = ByteBuffer.wrap(data);
      while (buffer.position() < data.length) {
        buffer.limit(Math.min(data.length, buffer.position() + IO_SLICE));
        out.write(buffer);
      }
      out.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    return temp;
  }

  /**
   * Forces a directory's entries to disk, so that a file just linked or renamed into it survives a
   * crash. Some filesystems (and Windows) cannot open a directory for this; there is nothing better
   * to do there, so the failure is ignored.
   */
  static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException ignored) {
      // Directory fsync unsupported here; the data itself has been forced already.
    }
  }

  /** Makes {@code file} read-only: r--r--r-- where POSIX permissions exist. */
  static void makeReadOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, READ_ONLY);
    } catch (UnsupportedOperationException e) {
      if (!file.toFile().setReadOnly()) {
        throw new IOException(file + ": could not make read-only", e);
      }
    }
  }

  /** Deletes {@code file}; where read-only files cannot be deleted (Windows), unlocks it first. */
  static boolean deleteIfExists(Path file) throws IOException {
    try {
      return Files.deleteIfExists(file);
    } catch (AccessDeniedException e) {
      if (!file.toFile().setWritable(true, true)) {
        throw e;
      }
      return Files.deleteIfExists(file);
    }
  }
}
