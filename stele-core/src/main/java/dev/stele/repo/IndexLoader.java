package dev.stele.repo;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the {@link Index}: reads every index blob, keeps those no other supersedes, and merges
 * their packs. If an index blob fails verification, its packs are recovered from their footers, so
 * a damaged index costs time, not data.
 */
final class IndexLoader {
  private IndexLoader() {}

  static Index load(Repository repo) throws IOException {
    Map<Id, IndexCodec.Contents> contents = new LinkedHashMap<>();
    boolean damaged = false;
    for (Id id : repo.list(BlobKind.INDEX)) {
      try {
        contents.put(id, repo.readIndexBlob(id));
      } catch (BlobNotFoundException e) {
        // superseded and deleted by maintenance after we listed it
      } catch (CorruptBlobException e) {
        repo.warn(e.getMessage() + "; recovering its packs from their footers");
        damaged = true;
      }
    }
    Map<Id, List<Id>> supersedes = new HashMap<>();
    contents.forEach((id, c) -> supersedes.put(id, c.supersedes()));
    List<Id> live = Index.live(supersedes);
    Set<String> marked = new HashSet<>();
    Set<String> repaired = new HashSet<>();
    for (MaintenanceRecord record : repo.maintenanceRecords().values()) {
      marked.addAll(record.markedPacks());
      if (record.marksDamage()) {
        repaired.addAll(record.markedPacks());
      }
    }
    Index index = new Index(live, marked);
    for (Id id : live) {
      contents.get(id).packs().forEach(index::add);
    }
    if (damaged) {
      recoverUnindexedPacks(repo, index, repaired);
    }
    return index;
  }

  private static void recoverUnindexedPacks(Repository repo, Index index, Set<String> repaired)
      throws IOException {
    for (BlobInfo info : repo.store().list(Pack.PREFIX)) {
      // A repair took a damaged pack out of the index on purpose: it must not come back.
      if (!index.packs().containsKey(info.name()) && !repaired.contains(info.name())) {
        try {
          index.add(info.name(), repo.readPackFooter(info.name(), info.size()));
        } catch (CorruptBlobException e) {
          repo.warn(e.getMessage());
        }
      }
    }
  }
}
