package dev.stele.maintenance;

/** Progress of a verification; called from worker threads, so thread-safe and quick. */
public interface VerifyListener {
  VerifyListener NONE = new VerifyListener() {};

  /** The total number of bytes {@code --read-data} will read, once known. */
  default void planned(long bytes) {}

  default void bytesRead(long n) {}
}
