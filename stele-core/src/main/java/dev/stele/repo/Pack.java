package dev.stele.repo;

import dev.stele.crypto.Aead;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.AEADBadTagException;

/**
 * The pack layout: many sealed chunks in one blob, named {@code packs/<32 random hex digits>}.
 *
 * <pre>
 * "STLPACK1"                          8 bytes
 * sealed chunk ...                    see ChunkCodec
 * footer: AES-256-GCM(entry table)    blob subkey, AAD = the pack's name
 * footer length u32 | "STLE"          8 bytes
 * entry table: count u32, then per entry: id[32] type u8 offset u32 length u32 rawLength u32
 * </pre>
 *
 * All integers big-endian. The footer lets an index be rebuilt from the packs alone.
 */
public final class Pack {
  public static final String PREFIX = "packs/";
  static final byte[] MAGIC = "STLPACK1".getBytes(StandardCharsets.US_ASCII);
  static final byte[] END = "STLE".getBytes(StandardCharsets.US_ASCII);
  static final int TRAILER = 8;
  private static final SecureRandom RANDOM = new SecureRandom();

  private Pack() {}

  static String newName() {
    byte[] random = new byte[16];
    RANDOM.nextBytes(random);
    return PREFIX + HexFormat.of().formatHex(random);
  }

  /** Builds one pack in memory. Concurrency: not thread-safe; the pack writer confines it. */
  static final class Builder {
    private final String name = newName();
    private byte[] buf;
    private int size;
    private final List<PackEntry> entries = new ArrayList<>();

    Builder(int capacity) {
      buf = new byte[Math.max(capacity, 1024)];
      System.arraycopy(MAGIC, 0, buf, 0, MAGIC.length);
      size = MAGIC.length;
    }

    String name() {
      return name;
    }

    int size() {
      return size;
    }

    boolean isEmpty() {
      return entries.isEmpty();
    }

    List<PackEntry> entries() {
      return entries;
    }

    void add(Id id, ChunkType type, byte[] sealed, int rawLength) {
      ensure(sealed.length);
      System.arraycopy(sealed, 0, buf, size, sealed.length);
      entries.add(new PackEntry(id, type, size, sealed.length, rawLength));
      size += sealed.length;
    }

    /** The finished pack: chunks, sealed footer, trailer. */
    byte[] finish(byte[] blobKey) {
      ByteBuffer table = ByteBuffer.allocate(4 + entries.size() * PackEntry.ENCODED_BYTES);
      table.putInt(entries.size());
      for (PackEntry e : entries) {
        IndexCodec.putEntry(table, e);
      }
      byte[] footer = Aead.seal(blobKey, name.getBytes(StandardCharsets.UTF_8), table.array());
      ensure(footer.length + TRAILER);
      System.arraycopy(footer, 0, buf, size, footer.length);
      size += footer.length;
      ByteBuffer.wrap(buf, size, 4).putInt(footer.length);
      System.arraycopy(END, 0, buf, size + 4, 4);
      size += TRAILER;
      return buf.length == size ? buf : Arrays.copyOf(buf, size);
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }
  }

  /** The length of the sealed footer, from the pack's last {@value #TRAILER} bytes. */
  static int footerLength(String name, byte[] trailer) throws IOException {
    if (trailer.length != TRAILER || !Arrays.equals(trailer, 4, 8, END, 0, 4)) {
      throw new CorruptBlobException(name, "pack trailer missing");
    }
    int length = ByteBuffer.wrap(trailer).getInt();
    if (length < Aead.OVERHEAD + 4) {
      throw new CorruptBlobException(name, "pack footer length " + length + " invalid");
    }
    return length;
  }

  /** Opens a sealed footer and returns the pack's entries. */
  static List<PackEntry> readFooter(String name, byte[] blobKey, byte[] footer, long packSize)
      throws IOException {
    byte[] table;
    try {
      table = Aead.open(blobKey, name.getBytes(StandardCharsets.UTF_8), footer);
    } catch (AEADBadTagException e) {
      throw new CorruptBlobException(name, "pack footer fails authentication");
    }
    ByteBuffer in = ByteBuffer.wrap(table);
    int count = in.getInt();
    if (count < 0 || table.length != 4 + (long) count * PackEntry.ENCODED_BYTES) {
      throw new CorruptBlobException(name, "pack footer malformed");
    }
    List<PackEntry> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      PackEntry e = IndexCodec.getEntry(in);
      if (e.offset() < MAGIC.length || e.offset() + (long) e.length() > packSize) {
        throw new CorruptBlobException(name, "pack entry out of bounds");
      }
      entries.add(e);
    }
    return entries;
  }
}
