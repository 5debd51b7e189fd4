package dev.stele.blob;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Small filesystem helpers for writing files durably: write, fsync, publish, fsync the parent. */
final class FileSync {
  // Modes asked of open(2), which clears what the umask forbids: the umask is honoured without
  // being read. A secret file is its owner's alone, or its owner's and group's in a directory
  // shared with a group; never others', not even while it is being written.
  private static final FileAttribute<Set<PosixFilePermission>> READABLE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-"));
  private static final FileAttribute<Set<PosixFilePermission>> SECRET =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final FileAttribute<Set<PosixFilePermission>> GROUP_SECRET =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw----"));
  private static final Set<StandardOpenOption> NEW_FILE =
      EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  private static final Set<PosixFilePermission> WRITE =
      EnumSet.of(
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_WRITE);

  private FileSync() {}

  /** Largest single read or write handed to a channel. */
  static final int IO_SLICE = 1 << 20;

  /** Who may read a file besides its owner, before the umask has its say. */
  enum Readers {
    EVERYONE,
    GROUP,
    OWNER
  }

  /**
   * Writes {@code data} to a new, uniquely named file in {@code dir} and forces it to disk. The
   * file gets the modes the umask allows for {@code readers}.
   */
  static Path writeTemporary(Path dir, byte[] data, Readers readers) throws IOException {
    return writeTemporary(
        dir,
        out -> {
          // In slices: the JDK copies a heap buffer into a temporary direct buffer of the same
          // size and caches it per thread, so one 16 MiB write would pin 16 MiB of native memory.
          ByteBuffer buffer = ByteBuffer.wrap(data);
          while (buffer.position() < data.length) {
            buffer.limit(Math.min(data.length, buffer.position() + IO_SLICE));
            out.write(buffer);
          }
        },
        readers);
  }

  /** As {@link #writeTemporary(Path, byte[], Readers)}, with a copy of {@code source}'s content. */
  static Path writeTemporary(Path dir, Path source, Readers readers) throws IOException {
    return writeTemporary(
        dir,
        out -> {
          try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            long size = in.size();
            for (long done = 0; done < size; ) {
              long n = in.transferTo(done, size - done, out);
              if (n <= 0 && in.size() <= done) {
                throw new EOFException(source + " shrank while it was copied");
              }
              done += n;
            }
          }
        },
        readers);
  }

  /**
   * A new, uniquely named hard link in {@code dir} to {@code source}, whose content is forced to
   * disk; null where no such link can be made (another filesystem, or one without hard links), for
   * the caller to copy instead. The link keeps {@code source}'s modes.
   */
  static @Nullable Path linkTemporary(Path dir, Path source) throws IOException {
    Files.createDirectories(dir);
    Path temp = dir.resolve(UUID.randomUUID() + ".tmp");
    try {
      Files.createLink(temp, source);
    } catch (UnsupportedOperationException | FileSystemException e) {
      return null; // EXDEV, EPERM, or no hard links here: the copy reports any real trouble
    }
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    return temp;
  }

  private interface Content {
    void writeTo(FileChannel out) throws IOException;
  }

  private static Path writeTemporary(Path dir, Content content, Readers readers)
      throws IOException {
    Files.createDirectories(dir);
    Path temp = dir.resolve(UUID.randomUUID() + ".tmp");
    try (FileChannel out = FileChannel.open(temp, NEW_FILE, modes(dir, readers))) {
      content.writeTo(out);
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

  private static FileAttribute<?>[] modes(Path dir, Readers readers) {
    if (!dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[0];
    }
    return new FileAttribute<?>[] {
      switch (readers) {
        case EVERYONE -> READABLE;
        case GROUP -> GROUP_SECRET;
        case OWNER -> SECRET;
      }
    };
  }

  /**
   * True if {@code dir} is set-group-id: the usual sign of a directory shared by a group (new files
   * there take the directory's group).
   */
  static boolean isGroupShared(Path dir) {
    try {
      return ((Integer) Files.getAttribute(dir, "unix:mode") & 02000) != 0;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Makes {@code file} read-only where POSIX permissions exist: it loses its write bits and keeps
   * the read bits it was created with, and its owner can always read it.
   */
  static void makeReadOnly(Path file) throws IOException {
    try {
      Set<PosixFilePermission> modes = Files.getPosixFilePermissions(file);
      modes.removeAll(WRITE);
      modes.add(PosixFilePermission.OWNER_READ);
      Files.setPosixFilePermissions(file, modes);
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
