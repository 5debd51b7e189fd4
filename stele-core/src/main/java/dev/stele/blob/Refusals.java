package dev.stele.blob;

import dev.stele.blob.StorageRefusedException.Problem;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells why the filesystem under a {@link FilesystemBlobStore} refused it. The filesystem is asked
 * (free space, mount flags, whether the root is a directory) rather than the message parsed: the
 * operating system's words depend on the locale, and a failed write says neither path nor cause.
 */
final class Refusals {
  /** Room a write needs beyond its bytes (directory entries, block rounding). */
  private static final long SPACE_MARGIN = 64 * 1024;

  private Refusals() {}

  /** Why a write of {@code name} ({@code size} bytes) under {@code root} failed with {@code e}. */
  static StorageRefusedException diagnose(
      Path root, Path temporaries, String name, long size, IOException e) {
    if (e instanceof StorageRefusedException already) {
      return already;
    }
    Path existing = existingAncestor(root);
    String location = root.toString();
    Problem problem = Problem.WRITE_FAILED;
    try {
      FileStore fileStore = Files.getFileStore(existing);
      if (!Files.isDirectory(existing)) {
        location = existing.toString();
        problem = Problem.NOT_A_DIRECTORY;
      } else if (fileStore.isReadOnly()) {
        problem = Problem.READ_ONLY;
      } else if (e instanceof AccessDeniedException denied) {
        // The directory refused, not a random temporary name in it.
        Path file = denied.getFile() == null ? root : Path.of(denied.getFile());
        location = (file.startsWith(temporaries) ? temporaries : file).toString();
        problem = Problem.PERMISSION_DENIED;
      } else if (fileStore.getUsableSpace() < size + SPACE_MARGIN) {
        problem = Problem.NO_SPACE;
      }
    } catch (IOException unknown) {
      // the failure itself is all there is to say
    }
    return new StorageRefusedException(location, problem, name, e);
  }

  /** Refuses a root that is a file (or under one): no command should read that as "empty". */
  static void checkRoot(Path root) throws StorageRefusedException {
    Path existing = existingAncestor(root);
    if (Files.exists(existing) && !Files.isDirectory(existing)) {
      throw new StorageRefusedException(existing.toString(), Problem.NOT_A_DIRECTORY, null, null);
    }
  }

  /** The root, or the nearest of its ancestors that exists. */
  private static Path existingAncestor(Path root) {
    Path path = root;
    while (path.getParent() != null && !Files.exists(path)) {
      path = path.getParent();
    }
    return path;
  }
}
