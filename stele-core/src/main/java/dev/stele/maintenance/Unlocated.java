package dev.stele.maintenance;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Chunks live snapshots reach that no index names, even after {@link Repository#locate} looked in
 * the footers of unindexed, unmarked packs. Such a chunk can only be in a pack no index names (a
 * marked one, or one whose footer cannot be read), so those packs are neither marked nor swept
 * while it is missing.
 */
final class Unlocated {
  private final Set<Id> chunks = new HashSet<>();
  private final Repository repo;

  Unlocated(Repository repo, Reachability reach) throws IOException {
    this.repo = repo;
    for (Id chunk : reach.all()) {
      if (repo.locate(chunk) == null) {
        chunks.add(chunk);
      }
    }
  }

  /** True if every chunk live snapshots reach is in the index. */
  boolean isEmpty() {
    return chunks.isEmpty();
  }

  /** True if unindexed {@code pack} may hold one of them; each such pack is held back. */
  boolean mayBeIn(BlobInfo pack, List<String> heldBack) {
    if (chunks.isEmpty()) {
      return false;
    }
    boolean may;
    try {
      may =
          repo.readPackFooter(pack.name(), pack.size()).stream()
              .anyMatch(e -> chunks.contains(e.id()));
    } catch (BlobNotFoundException e) {
      return false;
    } catch (IOException e) {
      may = true;
    }
    if (may) {
      heldBack.add(
          pack.name()
              + " is named by no index and may hold one of the "
              + chunks.size()
              + " chunks live snapshots use that no index names; not marked or deleted");
    }
    return may;
  }
}
