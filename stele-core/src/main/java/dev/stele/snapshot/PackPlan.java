package dev.stele.snapshot;

import dev.stele.repo.ChunkType;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * A restore's contents read from a repository's packs: which byte ranges of which packs feed which
 * files, each range read once (nearby chunks of a pack in one request) and each chunk opened once
 * and written to every file position that uses it.
 *
 * <p>The plan is one row per place a chunk goes, held in arrays (about 70 bytes a row), not in
 * objects (about 250): a restore plans every file before it reads, so that a pack shared by many
 * files is read once, and holds the plan to the end (docs/performance.md, eighth round).
 *
 * <p>Concurrency: planned by the walking threads (each addition under this plan's lock), then each
 * range is read by one worker thread.
 */
final class PackPlan implements ContentPlan {
  private static final int MAX_RANGE = 8 << 20;
  private static final int MAX_GAP = 256 << 10;
  private static final ThreadLocal<byte[]> RANGE = ThreadLocal.withInitial(() -> new byte[0]);

  private final Repository repo;
  private final FileRestore restore;
  private final Map<String, Integer> packNumbers = new HashMap<>();
  private final List<String> packs = new ArrayList<>();

  // Row r: the chunk's pack (its number in packs), its entry in the pack (id at r * Id.BYTES of
  // ids), and where it goes.
  private int rows;
  private int[] pack = new int[256];
  private int[] offset = new int[256];
  private int[] length = new int[256];
  private int[] rawLength = new int[256];
  private ChunkType[] type = new ChunkType[256];
  private byte[] ids = new byte[256 * Id.BYTES];
  private OutputFile[] file = new OutputFile[256];
  private long[] fileOffset = new long[256];

  PackPlan(Repository repo, FileRestore restore) {
    this.repo = repo;
    this.restore = restore;
  }

  @Override
  public @Nullable Planned locate(Node node, String shown) throws IOException {
    List<Location> locations = new ArrayList<>(node.chunks().size());
    for (Id id : node.chunks()) {
      Location location = repo.locate(id);
      if (location == null) {
        restore.missing(shown, id);
        return null;
      }
      locations.add(location);
    }
    return planned -> {
      long at = 0;
      for (Location location : locations) {
        add(location, planned, at);
        at += location.entry().rawLength();
      }
    };
  }

  private synchronized void add(Location location, OutputFile to, long at) {
    if (rows == pack.length) {
      int grown = rows + (rows >> 1);
      pack = Arrays.copyOf(pack, grown);
      offset = Arrays.copyOf(offset, grown);
      length = Arrays.copyOf(length, grown);
      rawLength = Arrays.copyOf(rawLength, grown);
      type = Arrays.copyOf(type, grown);
      ids = Arrays.copyOf(ids, grown * Id.BYTES);
      file = Arrays.copyOf(file, grown);
      fileOffset = Arrays.copyOf(fileOffset, grown);
    }
    PackEntry entry = location.entry();
    pack[rows] = packNumbers.computeIfAbsent(location.pack(), name -> numbered(name));
    offset[rows] = entry.offset();
    length[rows] = entry.length();
    rawLength[rows] = entry.rawLength();
    type[rows] = entry.type();
    entry.id().writeTo(ids, rows * Id.BYTES);
    file[rows] = to;
    fileOffset[rows] = at;
    rows++;
  }

  private int numbered(String name) {
    packs.add(name);
    return packs.size() - 1;
  }

  @Override
  public List<Callable<Void>> prepare() {
    return List.of();
  }

  /**
   * The reads: the rows sorted by pack, then by offset in the pack ({@code offset << 32 | row}, so
   * that the rows of one chunk are neighbours), and each pack's cut into ranges.
   */
  @Override
  public List<Callable<Void>> reads() {
    int[] start = new int[packs.size() + 1];
    for (int r = 0; r < rows; r++) {
      start[pack[r] + 1]++;
    }
    for (int p = 0; p < packs.size(); p++) {
      start[p + 1] += start[p];
    }
    int[] next = Arrays.copyOf(start, packs.size());
    long[] sorted = new long[rows];
    for (int r = 0; r < rows; r++) {
      sorted[next[pack[r]]++] = (long) offset[r] << 32 | r;
    }
    List<Callable<Void>> reads = new ArrayList<>();
    for (int p = 0; p < packs.size(); p++) {
      Arrays.sort(sorted, start[p], start[p + 1]);
      String name = packs.get(p);
      int from = start[p];
      for (int i = from + 1; i <= start[p + 1]; i++) {
        if (i == start[p + 1] || breaksRange(sorted, from, i)) {
          int rangeFrom = from;
          int rangeTo = i;
          reads.add(() -> restoreRange(name, sorted, rangeFrom, rangeTo));
          from = i;
        }
      }
    }
    return reads;
  }

  /**
   * Whether the row at {@code sorted[i]} starts a new range after the one begun at {@code from}.
   */
  private boolean breaksRange(long[] sorted, int from, int i) {
    int r = row(sorted[i]);
    int previous = row(sorted[i - 1]);
    long end = (long) offset[previous] + length[previous];
    return offset[r] - end > MAX_GAP
        || (long) offset[r] + length[r] - offset[row(sorted[from])] > MAX_RANGE;
  }

  private static int row(long sortedValue) {
    return (int) sortedValue;
  }

  @Override
  public void abandon() {
    for (int r = 0; r < rows; r++) {
      file[r].abandon();
    }
  }

  /**
   * This thread's buffer for ranges, at least {@code length} long: grown, not allocated per range,
   * so that the ranges in flight when the collector runs (up to 8 MiB each) are not copied into the
   * old generation again and again.
   */
  private static byte[] rangeBuffer(int length) {
    byte[] buffer = RANGE.get();
    if (buffer.length < length) {
      buffer = new byte[Math.max(length, Math.min(MAX_RANGE, 2 * buffer.length))];
      RANGE.set(buffer);
    }
    return buffer;
  }

  private @Nullable Void restoreRange(String name, long[] sorted, int from, int to)
      throws IOException {
    int first = row(sorted[from]);
    int last = row(sorted[to - 1]);
    int start = offset[first];
    int bytesLength = offset[last] + length[last] - start;
    byte[] bytes;
    IOException rangeFailure = null;
    try {
      bytes = repo.store().read(name, start, bytesLength, rangeBuffer(bytesLength));
    } catch (IOException e) {
      bytes = null;
      rangeFailure = e;
    }
    for (int i = from; i < to; ) {
      int r = row(sorted[i]);
      List<Target> targets = new ArrayList<>(1);
      for (; i < to && offset[row(sorted[i])] == offset[r]; i++) {
        targets.add(new Target(file[row(sorted[i])], fileOffset[row(sorted[i])]));
      }
      PackEntry entry =
          new PackEntry(Id.read(ids, r * Id.BYTES), type[r], offset[r], length[r], rawLength[r]);
      byte[] plain;
      try {
        if (bytes == null) {
          throw rangeFailure;
        }
        plain = repo.openChunk(name, entry, bytes, offset[r] - start);
      } catch (IOException e) {
        try {
          // On a versioned store, an overwritten pack is read from an older version.
          plain = repo.recoverChunk(name, entry, e);
        } catch (IOException again) {
          restore.lose(targets, bytes == null ? name + ": " + e.getMessage() : e.getMessage());
          continue;
        }
      }
      restore.deliver(targets, plain, entry.rawLength());
    }
    return null;
  }
}
