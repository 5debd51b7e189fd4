package dev.stele.snapshot;

import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * A restore's contents read from a repository's packs: which byte ranges of which packs feed which
 * files, each range read once (nearby chunks of a pack in one request) and each chunk opened once
 * and written to every file position that uses it.
 *
 * <p>Concurrency: planned by the walking thread, then each range is read by one worker thread.
 */
final class PackPlan implements ContentPlan {
  private static final int MAX_RANGE = 8 << 20;
  private static final int MAX_GAP = 256 << 10;

  private final Repository repo;
  private final FileRestore restore;
  private final Map<String, TreeMap<Integer, Slot>> plan = new HashMap<>();

  /** One chunk in a pack and every place it goes. */
  private record Slot(PackEntry entry, List<Target> targets) {}

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
    return file -> {
      long offset = 0;
      for (Location location : locations) {
        plan.computeIfAbsent(location.pack(), k -> new TreeMap<>())
            .computeIfAbsent(
                location.entry().offset(), k -> new Slot(location.entry(), new ArrayList<>(1)))
            .targets()
            .add(new Target(file, offset));
        offset += location.entry().rawLength();
      }
    };
  }

  @Override
  public List<Callable<Void>> prepare() {
    return List.of();
  }

  @Override
  public List<Callable<Void>> reads() {
    List<Callable<Void>> reads = new ArrayList<>();
    for (var pack : plan.entrySet()) {
      for (List<Slot> range : ranges(pack.getValue())) {
        reads.add(() -> restoreRange(pack.getKey(), range));
      }
    }
    return reads;
  }

  @Override
  public void abandon() {
    for (TreeMap<Integer, Slot> slots : plan.values()) {
      for (Slot slot : slots.values()) {
        slot.targets().forEach(t -> t.file().abandon());
      }
    }
  }

  /** Splits a pack's slots into ranges read with one request each. */
  private static List<List<Slot>> ranges(SortedMap<Integer, Slot> slots) {
    List<List<Slot>> ranges = new ArrayList<>();
    List<Slot> current = new ArrayList<>();
    long start = 0;
    long end = 0;
    for (Slot s : slots.values()) {
      int off = s.entry().offset();
      if (!current.isEmpty()
          && (off - end > MAX_GAP || off + s.entry().length() - start > MAX_RANGE)) {
        ranges.add(current);
        current = new ArrayList<>();
      }
      if (current.isEmpty()) {
        start = off;
      }
      current.add(s);
      end = (long) off + s.entry().length();
    }
    if (!current.isEmpty()) {
      ranges.add(current);
    }
    return ranges;
  }

  private @Nullable Void restoreRange(String pack, List<Slot> range) throws IOException {
    int start = range.get(0).entry().offset();
    PackEntry last = range.get(range.size() - 1).entry();
    int length = last.offset() + last.length() - start;
    byte[] bytes;
    IOException rangeFailure = null;
    try {
      bytes = repo.store().read(pack, start, length);
    } catch (IOException e) {
      bytes = null;
      rangeFailure = e;
    }
    for (Slot slot : range) {
      byte[] plain;
      try {
        if (bytes == null) {
          throw rangeFailure;
        }
        plain = repo.openChunk(pack, slot.entry(), bytes, slot.entry().offset() - start);
      } catch (IOException e) {
        try {
          // On a versioned store, an overwritten pack is read from an older version.
          plain = repo.recoverChunk(pack, slot.entry(), e);
        } catch (IOException again) {
          restore.lose(
              slot.targets(), bytes == null ? pack + ": " + e.getMessage() : e.getMessage());
          continue;
        }
      }
      restore.deliver(slot.targets(), plain);
    }
    return null;
  }
}
