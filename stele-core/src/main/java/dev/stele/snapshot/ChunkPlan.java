package dev.stele.snapshot;

import dev.stele.repo.Id;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * A restore's contents read by chunk id from a {@link ChunkReader} (a repository server), which
 * gives no pack ranges. First the lengths of the distinct chunks are asked for, batch by batch, to
 * know each chunk's offset in its files; then the chunks, in batches of up to {@link
 * ChunkReader#MAX_IDS} ids and about {@link #BATCH_BYTES}, in the order the walk met them, each
 * read once and written to every place that uses it. A file with a chunk the reader does not have
 * is removed at the end, as one whose chunk cannot be read.
 *
 * <p>Concurrency: planned by the walking threads (each addition under this plan's lock); the
 * lengths are gathered by worker threads into a concurrent map; then each batch is read by one
 * worker thread.
 */
final class ChunkPlan implements ContentPlan {
  static final int BATCH_BYTES = 8 << 20;

  private final ChunkReader reader;
  private final FileRestore restore;
  private final List<Pending> files = new ArrayList<>();
  private final Map<Id, Integer> lengths = new ConcurrentHashMap<>();
  private final Set<Id> distinct = new LinkedHashSet<>();

  private record Pending(OutputFile file, List<Id> chunks) {}

  ChunkPlan(ChunkReader reader, FileRestore restore) {
    this.reader = reader;
    this.restore = restore;
  }

  @Override
  public @Nullable Planned locate(Node node, String shown) {
    return file -> {
      synchronized (this) {
        files.add(new Pending(file, node.chunks()));
        distinct.addAll(node.chunks());
      }
    };
  }

  @Override
  public List<Callable<Void>> prepare() {
    List<Callable<Void>> asks = new ArrayList<>();
    List<Id> all = new ArrayList<>(distinct);
    for (int i = 0; i < all.size(); i += ChunkReader.MAX_IDS) {
      List<Id> batch = all.subList(i, Math.min(all.size(), i + ChunkReader.MAX_IDS));
      asks.add(
          () -> {
            int[] found = reader.lengths(batch);
            for (int j = 0; j < batch.size(); j++) {
              lengths.put(batch.get(j), found[j]);
            }
            return null;
          });
    }
    return asks;
  }

  @Override
  public List<Callable<Void>> reads() throws IOException {
    Map<Id, List<Target>> targets = new LinkedHashMap<>();
    for (Pending p : files) {
      Id missing = p.chunks().stream().filter(id -> lengths.get(id) < 0).findFirst().orElse(null);
      if (missing != null) {
        List<Target> all = p.chunks().stream().map(id -> new Target(p.file(), 0)).toList();
        restore.lose(all, "chunk " + missing.shortHex() + " is missing from the repository");
        continue;
      }
      long offset = 0;
      for (Id id : p.chunks()) {
        targets.computeIfAbsent(id, k -> new ArrayList<>(1)).add(new Target(p.file(), offset));
        offset += lengths.get(id);
      }
    }
    List<Callable<Void>> reads = new ArrayList<>();
    List<Id> batch = new ArrayList<>();
    long bytes = 0;
    for (Id id : targets.keySet()) {
      if (!batch.isEmpty()
          && (batch.size() == ChunkReader.MAX_IDS || bytes + lengths.get(id) > BATCH_BYTES)) {
        reads.add(read(batch, targets));
        batch = new ArrayList<>();
        bytes = 0;
      }
      batch.add(id);
      bytes += lengths.get(id);
    }
    if (!batch.isEmpty()) {
      reads.add(read(batch, targets));
    }
    return reads;
  }

  private Callable<Void> read(List<Id> batch, Map<Id, List<Target>> targets) {
    return () -> {
      reader.read(
          batch,
          new ChunkReader.Sink() {
            @Override
            public void chunk(Id id, byte[] plain) throws IOException {
              restore.deliver(targets.get(id), plain, plain.length);
            }

            @Override
            public void failed(Id id, String why) throws IOException {
              restore.lose(targets.get(id), why);
            }
          });
      return null;
    };
  }

  @Override
  public void abandon() {
    files.forEach(p -> p.file().abandon());
  }
}
