package dev.stele.repo;

import dev.stele.blob.BlobNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds the {@link Index}: reads every index blob, keeps those no other supersedes, and merges
 * their packs. If an index blob fails verification (or is missing), the chunks readers need are
 * recovered from the footers of packs no index names ({@link FooterRecovery}), so a damaged index
 * costs time, not data.
 */
final class IndexLoader {
  private static final AtomicLong LOADS = new AtomicLong();

  private IndexLoader() {}

  static long loads() {
    return LOADS.get();
  }

  static Index load(Repository repo) throws IOException {
    LOADS.incrementAndGet();
    Map<Id, IndexCodec.Contents> contents = new LinkedHashMap<>();
    List<Id> damaged = new ArrayList<>();
    read(repo, contents, damaged);
    Map<Id, List<Id>> supersedes = new HashMap<>();
    contents.forEach((id, c) -> supersedes.put(id, c.supersedes()));
    List<Id> live = Index.live(supersedes);
    Set<String> marked = new HashSet<>();
    for (MaintenanceRecord record : repo.maintenanceRecords().values()) {
      marked.addAll(record.markedPacks());
    }
    List<Id> superseded = new ArrayList<>(contents.keySet());
    superseded.removeAll(live);
    contents.keySet().retainAll(live);
    Index index = new Index(live, superseded, damaged, marked);
    index.reserve(contents.values().stream().mapToInt(IndexLoader::entries).sum());
    for (Id id : live) {
      // each payload let go once its packs are in the index: the load's peak stays near the index
      contents.remove(id).packs().forEach(index::add);
    }
    return index;
  }

  private static int entries(IndexCodec.Contents c) {
    return c.packs().values().stream().mapToInt(List::size).sum();
  }

  /** Reads every index blob into {@code contents}, naming those that fail in {@code damaged}. */
  private static void read(Repository repo, Map<Id, IndexCodec.Contents> contents, List<Id> damaged)
      throws IOException {
    List<Repository.Read<IndexCodec.Contents>> reads =
        repo.readBlobs(
            BlobKind.INDEX,
            repo.list(BlobKind.INDEX),
            (id, payload) -> IndexCodec.decode(BlobKind.INDEX.nameOf(id), payload));
    for (Repository.Read<IndexCodec.Contents> read : reads) {
      IndexCodec.Contents c = read.value();
      if (c != null) {
        contents.put(read.id(), c);
      } else if (read.problem() instanceof CorruptBlobException e) {
        repo.warn(e.getMessage() + "; chunks it named are recovered from pack footers");
        damaged.add(read.id());
      } else if (!(read.problem() instanceof BlobNotFoundException)) {
        // (not found: superseded and deleted by maintenance after we listed it)
        throw Objects.requireNonNull(read.problem());
      }
    }
  }
}
