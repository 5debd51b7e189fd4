package dev.stele.repo;

import dev.stele.crypto.Aead;
import dev.stele.crypto.MasterKey;
import java.io.IOException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;

/**
 * Seals one chunk for a pack with {@link dev.stele.crypto.Aead} ({@code iv[16] ‖ ciphertext ‖
 * tag[32]}) of {@code flag ‖ payload} under the chunk's own key (HMAC of its id under the chunk-key
 * subkey), with AAD {@code id ‖ type}. A chunk therefore authenticates its own name: a pack entry
 * moved, swapped or altered fails to open.
 *
 * <p>Concurrency: stateless apart from the immutable master key; safe for any number of threads.
 */
final class ChunkCodec {
  private final MasterKey key;
  private final int level;

  ChunkCodec(MasterKey key, int level) {
    this.key = key;
    this.level = level;
  }

  byte[] seal(Id id, ChunkType type, byte[] data, int off, int len) {
    Compression.Framed framed = Compression.frame(data, off, len, level);
    return Aead.seal(key.chunkKey(id.bytes()), aad(id, type), framed.bytes(), 0, framed.length());
  }

  /**
   * Opens the sealed chunk in {@code buf[off, off+entry.length)} and checks it is {@code entry}.
   */
  byte[] open(String pack, PackEntry entry, byte[] buf, int off) throws IOException {
    String where = pack + " (chunk " + entry.id().shortHex() + ")";
    if (off < 0 || (long) off + entry.length() > buf.length) {
      throw new CorruptBlobException(
          pack, "shorter than its entries (chunk " + entry.id().shortHex() + ")");
    }
    try {
      byte[] framed =
          Aead.open(
              key.chunkKey(entry.id().bytes()),
              aad(entry.id(), entry.type()),
              buf,
              off,
              entry.length());
      return Compression.unframe(framed, entry.rawLength(), where);
    } catch (AEADBadTagException e) {
      throw new CorruptBlobException(where, "chunk fails authentication");
    }
  }

  private static byte[] aad(Id id, ChunkType type) {
    byte[] aad = Arrays.copyOf(id.bytes(), Id.BYTES + 1);
    aad[Id.BYTES] = type.code();
    return aad;
  }
}
