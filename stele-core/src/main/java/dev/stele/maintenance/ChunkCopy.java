package dev.stele.maintenance;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Copies chunks out of a pack into new packs: maintenance's rewrite of a mostly dead pack and
 * repair's salvage of a damaged one. A chunk that verifies is copied still sealed, without being
 * decrypted again; one that does not is looked for in the pack's older versions (on a store that
 * keeps them) and stored anew from there.
 */
final class ChunkCopy {
  private ChunkCopy() {}

  /**
   * Copies each of {@code entries} of {@code pack} into {@code writer}.
   *
   * @param bytes the pack's whole content, or null if it could not be read
   * @return the entries that could not be copied (found in no version of the pack)
   */
  static List<PackEntry> copy(
      Repository repo, ChunkWriter writer, String pack, byte[] bytes, List<PackEntry> entries)
      throws IOException {
    List<PackEntry> lost = new ArrayList<>();
    for (PackEntry e : entries) {
      IOException failure;
      if (bytes == null) {
        failure = new BlobNotFoundException(pack);
      } else if (e.offset() + (long) e.length() > bytes.length) {
        failure = new CorruptBlobException(pack, "chunk " + e.id().shortHex() + " past the end");
      } else {
        try {
          repo.openChunk(pack, e, bytes, e.offset());
          writer.copy(e, Arrays.copyOfRange(bytes, e.offset(), e.offset() + e.length()));
          continue;
        } catch (CorruptBlobException x) {
          failure = x;
        }
      }
      try {
        byte[] plain = repo.recoverChunk(pack, e, failure);
        writer.put(e.id(), e.type(), plain, 0, plain.length);
      } catch (CorruptBlobException | BlobNotFoundException x) {
        lost.add(e);
      }
    }
    return lost;
  }
}
