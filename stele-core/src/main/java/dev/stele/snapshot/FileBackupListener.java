package dev.stele.snapshot;

import java.nio.file.Path;

/**
 * What a backup reports while it runs. Called from the backup's worker threads: implementations
 * must be thread-safe and quick.
 */
public interface FileBackupListener {
  FileBackupListener NONE = new FileBackupListener() {};

  /** Bytes of a file being read were chunked (called often, per chunk). */
  default void bytesRead(long bytes) {}

  /** A file was fully processed (read and chunked, or reused from the parent). */
  default void fileDone(Path path, long bytes, boolean reused) {}

  /** Something was skipped or could not be read; the backup goes on without it. */
  default void warning(String message) {}
}
