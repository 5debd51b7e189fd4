package dev.stele.snapshot;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Json;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.repo.Tombstone;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The snapshots of a repository: every snapshot manifest that no tombstone forgets. Forgetting
 * writes a tombstone; the manifest and its data stay until maintenance may remove them.
 */
public final class SnapshotCatalog {
  private final Repository repo;

  public SnapshotCatalog(Repository repo) {
    this.repo = repo;
  }

  /** A snapshot and its id. */
  public record Entry(Id id, SnapshotManifest manifest) {
    public String name() {
      return BlobKind.SNAPSHOT.nameOf(id);
    }
  }

  /** Live snapshots, oldest first. */
  public List<Entry> list() throws IOException {
    Set<String> forgotten = repo.tombstoned();
    List<Entry> entries = new ArrayList<>();
    for (Id id : repo.list(BlobKind.SNAPSHOT)) {
      if (forgotten.contains(BlobKind.SNAPSHOT.nameOf(id))) {
        continue;
      }
      try {
        entries.add(new Entry(id, read(id)));
      } catch (BlobNotFoundException e) {
        // removed by maintenance after listing: it was forgotten
      }
    }
    entries.sort(Comparator.comparing((Entry e) -> e.manifest().time()).thenComparing(Entry::id));
    return entries;
  }

  public SnapshotManifest read(Id id) throws IOException {
    return Json.readVersioned(
        BlobKind.SNAPSHOT.nameOf(id),
        repo.readBlob(BlobKind.SNAPSHOT, id),
        SnapshotManifest.class,
        SnapshotManifest.VERSION);
  }

  /**
   * Finds a snapshot by {@code latest}, a full id, or a unique prefix of one.
   *
   * @throws UnknownSnapshotException if none or several match
   */
  public Entry resolve(String spec) throws IOException {
    List<Entry> all = list();
    if (spec.equals("latest")) {
      if (all.isEmpty()) {
        throw new UnknownSnapshotException("the repository has no snapshots");
      }
      return all.get(all.size() - 1);
    }
    String prefix = spec.toLowerCase(java.util.Locale.ROOT);
    List<Entry> matches = all.stream().filter(e -> e.id().hex().startsWith(prefix)).toList();
    if (matches.isEmpty()) {
      throw new UnknownSnapshotException("no snapshot " + spec);
    }
    if (matches.size() > 1) {
      throw new UnknownSnapshotException(
          "snapshot prefix " + spec + " is ambiguous (" + matches.size() + " snapshots match)");
    }
    return matches.get(0);
  }

  /** The newest snapshot of exactly these paths from this host, or null: the default parent. */
  public Entry latest(String host, List<String> paths) throws IOException {
    Entry found = null;
    for (Entry e : list()) {
      if (e.manifest().host().equals(host) && e.manifest().paths().equals(paths)) {
        found = e;
      }
    }
    return found;
  }

  /** Writes a snapshot manifest: from now on the snapshot exists. */
  public Id write(SnapshotManifest manifest) throws IOException {
    return repo.writeBlob(BlobKind.SNAPSHOT, Json.write(manifest), manifest.expires());
  }

  /** Forgets a snapshot by writing a tombstone; returns the tombstone's id. */
  public Id forget(Id snapshot, String reason) throws IOException {
    return repo.writeBlob(
        BlobKind.TOMBSTONE,
        Json.write(
            new Tombstone(BlobKind.SNAPSHOT.nameOf(snapshot), repo.clock().instant(), reason)));
  }
}
