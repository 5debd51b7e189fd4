package dev.stele.repo;

import dev.stele.crypto.Aead;
import dev.stele.crypto.MasterKey;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import org.jspecify.annotations.Nullable;

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

  /** The sealed chunk in a new array of its length. */
  byte[] seal(Id id, ChunkType type, byte[] data, int off, int len) {
    Sealed sealed = sealReused(id, type, data, off, len);
    return Arrays.copyOf(sealed.bytes(), sealed.length());
  }

  /**
   * Seals a chunk into a buffer this thread reuses, framed in place and encrypted there: valid
   * until this thread's next {@code sealReused}. For a writer that copies it out at once, so that a
   * chunk costs no array of its size.
   */
  Sealed sealReused(Id id, ChunkType type, byte[] data, int off, int len) {
    byte[] buf = SCRATCH.get().sealed(Aead.OVERHEAD + Compression.bound(len));
    int framed = Compression.frame(data, off, len, level, buf, Aead.IV_BYTES);
    return new Sealed(buf, Aead.sealInPlace(key.chunkKey(id.bytes()), aad(id, type), buf, framed));
  }

  /** A sealed chunk: {@code bytes[0, length)}. */
  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  record Sealed(byte[] bytes, int length) {}

  /**
   * Opens the sealed chunk in {@code buf[off, off+entry.length)} and checks it is {@code entry}.
   */
  byte[] open(String pack, PackEntry entry, byte[] buf, int off) throws IOException {
    byte[] out = new byte[entry.rawLength()];
    open(pack, entry, buf, off, new byte[Math.max(0, entry.length() - Aead.OVERHEAD)], out);
    return out;
  }

  /**
   * Opens the sealed chunk as {@link #open} does, into a buffer this thread reuses: the chunk is in
   * {@code [0, entry.rawLength())} of what it returns, until this thread's next {@code openReused}
   * or {@link #check}.
   */
  byte[] openReused(String pack, PackEntry entry, byte[] buf, int off) throws IOException {
    Scratch s = SCRATCH.get();
    byte[] raw = s.raw(entry.rawLength());
    open(pack, entry, buf, off, s.framed(entry.length() - Aead.OVERHEAD), raw);
    return raw;
  }

  /**
   * Checks the sealed chunk in {@code buf[off, off+entry.length)} as {@link #open} does, every step
   * of it, and that its content hashes to its id, which a writer that sealed the wrong bytes under
   * an id would break and authentication cannot see. Decrypts in {@code buf}, whose chunk bytes are
   * gone afterwards, and decompresses into a buffer this thread reuses: a reader that keeps nothing
   * allocates nothing per chunk and holds one chunk-sized buffer besides its own.
   */
  void check(String pack, PackEntry entry, byte[] buf, int off) throws IOException {
    byte[] raw = SCRATCH.get().raw(entry.rawLength());
    open(pack, entry, buf, off, null, raw);
    if (!MessageDigest.isEqual(key.chunkId(raw, 0, entry.rawLength()), entry.id().bytes())) {
      throw new CorruptBlobException(where(pack, entry), "content does not match its id");
    }
  }

  /**
   * Opens the chunk in {@code buf[off, off+entry.length)} into {@code out}: decrypted into {@code
   * framed}, or where it lies if that is null, then decompressed.
   */
  private void open(
      String pack, PackEntry entry, byte[] buf, int off, byte @Nullable [] framed, byte[] out)
      throws IOException {
    String where = where(pack, entry);
    if (off < 0 || (long) off + entry.length() > buf.length) {
      throw new CorruptBlobException(
          pack, "shorter than its entries (chunk " + entry.id().shortHex() + ")");
    }
    byte[] chunkKey = key.chunkKey(entry.id().bytes());
    byte[] aad = aad(entry.id(), entry.type());
    try {
      if (framed == null) {
        int n = Aead.openInPlace(chunkKey, aad, buf, off, entry.length());
        Compression.unframe(buf, off + Aead.IV_BYTES, n, entry.rawLength(), where, out);
      } else {
        int n = Aead.open(chunkKey, aad, buf, off, entry.length(), framed);
        Compression.unframe(framed, n, entry.rawLength(), where, out);
      }
    } catch (AEADBadTagException e) {
      throw new CorruptBlobException(where, "chunk fails authentication");
    }
  }

  /**
   * Per-thread buffers for {@link #sealReused} and {@link #openReused}, grown to hold the largest
   * chunk seen.
   */
  private static final class Scratch {
    private byte[] framed = new byte[0];
    private byte[] raw = new byte[0];
    private byte[] sealed = new byte[0];

    // Grown to the length asked, not to a power of two: the largest chunk needs just over 4 MiB,
    // and a thread meets few new largest sizes, so growing exactly costs few allocations.
    byte[] sealed(int length) {
      if (sealed.length < length) {
        sealed = new byte[length];
      }
      return sealed;
    }

    byte[] framed(int length) {
      if (framed.length < length) {
        framed = new byte[grown(length)];
      }
      return framed;
    }

    byte[] raw(int length) {
      if (raw.length < length) {
        raw = new byte[grown(length)];
      }
      return raw;
    }
  }

  /** Beyond this, reused buffers grow in steps of this many bytes rather than by doubling. */
  private static final int STEP = 256 << 10;

  /**
   * The size a reused buffer grows to for {@code length} bytes: the next power of two up to {@value
   * #STEP} bytes, then the next multiple of it, so that chunks of rising sizes cost a few
   * allocations per thread rather than one each, and the largest chunk (4 MiB and a few bytes of
   * framing when sealed) takes 4.25 MiB, not 8.
   */
  static int grown(int length) {
    if (length <= STEP) {
      return length <= 1 ? 1 : Math.max(length, Integer.highestOneBit(length - 1) << 1);
    }
    long stepped = ((long) length + STEP - 1) / STEP * STEP;
    return (int) Math.min(stepped, Integer.MAX_VALUE);
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** How a message names chunk {@code entry} of {@code pack}. */
  private static String where(String pack, PackEntry entry) {
    return pack + " (chunk " + entry.id().shortHex() + ")";
  }

  private static byte[] aad(Id id, ChunkType type) {
    byte[] aad = Arrays.copyOf(id.bytes(), Id.BYTES + 1);
    aad[Id.BYTES] = type.code();
    return aad;
  }
}
