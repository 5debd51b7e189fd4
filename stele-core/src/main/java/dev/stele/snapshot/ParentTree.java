package dev.stele.snapshot;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import java.io.IOException;

/**
 * A directory's tree in the parent snapshot, with the id it is stored under: what a backup compares
 * a directory with to reuse unchanged files' chunks and unchanged subtrees.
 */
record ParentTree(Id id, Tree tree) {
  /**
   * The parent snapshot's tree for a directory, or null if the parent had no such directory or its
   * tree is lost (the parent is damaged: everything below is read again, which is how a backup of
   * the same data heals it).
   */
  static ParentTree of(Repository repo, Node parentNode) throws IOException {
    if (parentNode == null || !parentNode.isDirectory()) {
      return null;
    }
    Id id = parentNode.subtree();
    try {
      return new ParentTree(id, Tree.decode(id, repo.readChunk(id)));
    } catch (BlobNotFoundException | CorruptBlobException e) {
      return null;
    }
  }
}
