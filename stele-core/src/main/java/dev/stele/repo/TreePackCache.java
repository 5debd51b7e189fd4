package dev.stele.repo;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whole tree packs, kept after the first read of a tree chunk from them. Walking a snapshot reads
 * thousands of small tree chunks that sit together in a few packs; one read per pack instead of one
 * per tree turns thousands of requests (to a disk or a bucket) into a handful.
 *
 * <p>Least recently used packs are dropped beyond {@value #BUDGET} bytes.
 *
 * <p>Concurrency: thread-safe; two threads missing the same pack at once may both read it.
 */
final class TreePackCache {
  private static final long BUDGET = 64L << 20;
  private final Map<String, byte[]> packs = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  /** The bytes of {@code pack}, read through {@code loader} when not cached. */
  byte[] get(String pack, Loader loader) throws IOException {
    synchronized (this) {
      byte[] cached = packs.get(pack);
      if (cached != null) {
        return cached;
      }
    }
    byte[] loaded = loader.load();
    synchronized (this) {
      if (packs.put(pack, loaded) == null) {
        bytes += loaded.length;
      }
      var it = packs.entrySet().iterator();
      while (bytes > BUDGET && it.hasNext()) {
        var eldest = it.next();
        if (eldest.getValue() != loaded) {
          bytes -= eldest.getValue().length;
          it.remove();
        }
      }
    }
    return loaded;
  }

  interface Loader {
    byte[] load() throws IOException;
  }
}
