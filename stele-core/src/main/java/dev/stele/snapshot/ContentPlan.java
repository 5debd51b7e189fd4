package dev.stele.snapshot;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * How a restore gets its files' contents: each file is planned while the walk makes it, then the
 * reads run on the restore's threads. {@link PackPlan} reads byte ranges of packs from a
 * repository; {@link ChunkPlan} reads chunks by id from a {@link ChunkReader}. Making entries,
 * writing chunks into files, metadata and the path checks are {@link FileRestore}'s, the same for
 * both.
 */
interface ContentPlan {
  /** A place in a file where a chunk goes. */
  record Target(OutputFile file, long offset) {}

  /** A file's content, found; it is planned once the file is made. */
  interface Planned {
    void add(OutputFile file);
  }

  /**
   * Finds the content of {@code node} before its file is made; null, with a warning, if it cannot
   * (then the file is not made and what the target has stays).
   */
  @Nullable Planned locate(Node node, String shown) throws IOException;

  /** What must run before {@link #reads} can be made; empty if nothing. */
  List<Callable<Void>> prepare();

  /** The reads, each a task for the restore's threads. */
  List<Callable<Void>> reads() throws IOException;

  /** Closes every planned file still open: the restore stops short. */
  void abandon();
}
