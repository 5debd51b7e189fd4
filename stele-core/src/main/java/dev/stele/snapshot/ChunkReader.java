package dev.stele.snapshot;

import dev.stele.repo.Id;
import java.io.IOException;
import java.util.List;

/**
 * Where a restore reads file contents when it has no pack index to plan by: data chunks by id, many
 * to a call, such as a repository server's {@code POST /api/v1/chunks} (docs/server.md). The
 * restore asks for each chunk's length first, to know where in its files it goes, then for the
 * chunks in batches of at most {@link #MAX_IDS}.
 *
 * <p>Concurrency: the restore's worker threads call it at once.
 */
public interface ChunkReader {
  /** The most ids one call is given. */
  int MAX_IDS = 1000;

  /** The plain length of each of {@code ids}, in order; -1 for one there is not. */
  int[] lengths(List<Id> ids) throws IOException;

  /** Reads {@code ids}, handing each to {@code sink} in this order as it arrives. */
  void read(List<Id> ids, Sink sink) throws IOException;

  /** Receives the chunks of one {@link #read}. */
  interface Sink {
    void chunk(Id id, byte[] plain) throws IOException;

    /** Chunk {@code id} cannot be read (damaged data); {@code why} is one line. */
    void failed(Id id, String why) throws IOException;
  }
}
