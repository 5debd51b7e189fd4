package dev.stele.snapshot;

/** What a restore reports while it runs; called from worker threads, so thread-safe and quick. */
public interface FileRestoreListener {
  FileRestoreListener NONE = new FileRestoreListener() {};

  /** The plan is made: this many files and bytes will be written. */
  default void planned(long files, long bytes) {}

  /** Bytes of file content were written (or left as a hole). */
  default void bytesWritten(long bytes) {}

  default void fileDone() {}

  default void warning(String message) {}
}
