package dev.stele.repo;

import dev.stele.blob.BlobNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    for (Id id : repo.list(BlobKind.INDEX)) {
      try {
        contents.put(id, repo.readIndexBlob(id));
      } catch (BlobNotFoundException e) {
        // superseded and deleted by maintenance after we listed it
      } catch (CorruptBlobException e) {
        repo.warn(e.getMessage() + "; chunks it named are recovered from pack footers");
        damaged.add(id);
      }
    }
    Map<Id, List<Id>> supersedes = new HashMap<>();
    contents.forEach((id, c) -> supersedes.put(id, c.supersedes()));
    List<Id> live = Index.live(supersedes);
    Set<String> marked = new HashSet<>();
    for (MaintenanceRecord record : repo.maintenanceRecords().values()) {
      marked.addAll(record.markedPacks());
    }
    List<Id> superseded = new ArrayList<>(contents.keySet());
    superseded.removeAll(live);
    Index index = new Index(live, superseded, damaged, marked);
    for (Id id : live) {
      contents.get(id).packs().forEach(index::add);
    }
    return index;
  }
}
