package dev.stele.operator.backup;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The snapshot manifests of the repositories this process opens, each read (and authenticated) once
 * per open repository ({@link Repository#manifestsRead}, shared by its sessions). A manifest is
 * named by its content's hash and never rewritten, so a kept copy can never be stale: searching a
 * repository for a backup's manifest costs one listing plus the manifests written since the last
 * search, not a read of every manifest — on object storage the difference between a few requests
 * and thousands per backup, deletion or restore.
 *
 * <p>Thread-safe; forgotten (tombstoned) manifests are listed too, as the searches need. A manifest
 * that cannot be read is left out with a warning (and read again next time, in case the store
 * serves a good version later). Bounded: past {@link #LIMIT} manifests of one repository it starts
 * over.
 */
public final class Manifests {
  static final int LIMIT = 200_000;

  private Manifests() {}

  /** Every manifest in {@code repo}, in the store's listing order. */
  public static List<SnapshotCatalog.Entry> all(Repository repo) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    Map<Id, SnapshotManifest> seen = repo.manifestsRead();
    List<SnapshotCatalog.Entry> out = new ArrayList<>();
    for (Id id : repo.list(BlobKind.SNAPSHOT)) {
      SnapshotManifest m = seen.get(id);
      if (m == null) {
        try {
          m = catalog.read(id);
        } catch (BlobNotFoundException e) {
          continue; // deleted by maintenance since the listing
        } catch (IOException e) {
          // Damaged, or from a newer Stele: it costs only its own backup, never the others.
          repo.warnOnce(e.getMessage() + "; manifest skipped");
          continue;
        }
        if (seen.size() >= LIMIT) {
          seen.clear();
        }
        seen.put(id, m);
      }
      out.add(new SnapshotCatalog.Entry(id, m));
    }
    return out;
  }
}
