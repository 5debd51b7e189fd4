package dev.stele.repo;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The chunks of packs that no index names and no maintenance record marks, read from their footers:
 * how a reader gets past a missing or damaged index blob. Built once per loaded {@link Index}, on
 * the first chunk that no index names.
 *
 * <p>Marked packs are never re-indexed: maintenance (or repair) decided they go, and writers must
 * not come to depend on them again. A chunk the index already holds is never taken from here, so a
 * pack a crashed writer left behind is re-indexed only if it holds a chunk found nowhere else.
 *
 * <p>Concurrency: {@link #recover} may be called by many threads.
 */
final class FooterRecovery {
  private final Repository repo;
  private final Index index;
  private final Map<Id, String> packOf = new HashMap<>();
  private final Map<String, List<PackEntry>> entries = new HashMap<>();

  private FooterRecovery(Repository repo, Index index) {
    this.repo = repo;
    this.index = index;
  }

  /** The recovery of {@code index}, reading the unindexed footers now if this is the first call. */
  static FooterRecovery of(Repository repo, Index index) throws IOException {
    synchronized (index) {
      if (index.recovery() == null) {
        FooterRecovery r = new FooterRecovery(repo, index);
        r.readFooters();
        index.recovery(r);
      }
      return index.recovery();
    }
  }

  private void readFooters() throws IOException {
    for (BlobInfo info : repo.store().list(Pack.PREFIX)) {
      String pack = info.name();
      if (index.packs().containsKey(pack) || index.markedPacks().contains(pack)) {
        continue;
      }
      try {
        List<PackEntry> footer = repo.readPackFooter(pack, info.size());
        entries.put(pack, footer);
        footer.forEach(e -> packOf.putIfAbsent(e.id(), pack));
      } catch (BlobNotFoundException e) {
        // deleted by maintenance since the listing
      } catch (CorruptBlobException e) {
        repo.warnOnce(e.getMessage());
      }
    }
  }

  /** Where {@code id} is, re-indexing the pack that holds it; null if no unindexed pack does. */
  synchronized Location recover(Id id) {
    Location location = index.find(id);
    if (location != null) {
      return location;
    }
    String pack = packOf.get(id);
    if (pack == null) {
      return null;
    }
    index.add(pack, entries.get(pack));
    index.recovered(pack);
    repo.warn(
        "pack "
            + pack
            + " holds chunks in no index (an index blob is missing or damaged); re-indexed from"
            + " its footer");
    return index.find(id);
  }
}
