package dev.stele.repo;

import dev.stele.crypto.Aead;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The payload of an index blob (before {@link Envelope} seals it), all integers big-endian:
 *
 * <pre>
 * version u8 = 1
 * supersedes: count u32, then count × id[32]     (index blobs this one replaces)
 * packs: count u32, then per pack:
 *   name length u16 | name (UTF-8) | entry count u32 | entries (id[32] type u8 offset u32
 *   length u32 rawLength u32)
 * </pre>
 */
final class IndexCodec {
  private IndexCodec() {}

  record Contents(List<Id> supersedes, Map<String, List<PackEntry>> packs) {}

  /**
   * Encodes an index payload.
   *
   * @throws IllegalArgumentException if a pack name is longer than 65535 UTF-8 bytes (the u16
   *     length field cannot record it)
   */
  static byte[] encode(List<Id> supersedes, Map<String, List<PackEntry>> packs) {
    int size = 1 + 4 + supersedes.size() * Id.BYTES + 4;
    Map<String, byte[]> names = new LinkedHashMap<>();
    for (var pack : packs.entrySet()) {
      byte[] name = pack.getKey().getBytes(StandardCharsets.UTF_8);
      if (name.length > 0xFFFF) {
        throw new IllegalArgumentException(
            "pack name is "
                + name.length
                + " UTF-8 bytes, longer than an index can record (65535): "
                + pack.getKey().substring(0, Math.min(pack.getKey().length(), 80))
                + "…");
      }
      names.put(pack.getKey(), name);
      size += 2 + name.length + 4 + pack.getValue().size() * PackEntry.ENCODED_BYTES;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put((byte) 1);
    out.putInt(supersedes.size());
    supersedes.forEach(id -> out.put(id.bytes()));
    out.putInt(packs.size());
    for (var pack : packs.entrySet()) {
      byte[] name = names.get(pack.getKey());
      out.putShort((short) name.length);
      out.put(name);
      out.putInt(pack.getValue().size());
      pack.getValue().forEach(e -> putEntry(out, e));
    }
    return out.array();
  }

  static Contents decode(String blob, byte[] payload) throws IOException {
    try {
      ByteBuffer in = ByteBuffer.wrap(payload);
      if (in.get() != 1) {
        throw new CorruptBlobException(blob, "unknown index version");
      }
      int superseded = in.getInt();
      if (superseded < 0 || superseded > in.remaining() / Id.BYTES) {
        throw new CorruptBlobException(blob, "supersedes count " + superseded + " out of bounds");
      }
      List<Id> supersedes = new ArrayList<>(superseded);
      for (int i = 0; i < superseded; i++) {
        supersedes.add(readId(in));
      }
      int packCount = in.getInt();
      Map<String, List<PackEntry>> packs = new LinkedHashMap<>();
      for (int p = 0; p < packCount; p++) {
        byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
        in.get(name);
        String pack = new String(name, StandardCharsets.UTF_8).intern();
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / PackEntry.ENCODED_BYTES) {
          throw new CorruptBlobException(
              blob, "entry count " + count + " of " + pack + " out of bounds");
        }
        int first = in.position();
        for (int i = 0; i < count; i++) {
          checkEncoded(blob, pack, in);
        }
        packs.put(pack, new Encoded(payload, first, count));
      }
      if (in.hasRemaining()) {
        throw new CorruptBlobException(blob, "trailing bytes in index");
      }
      return new Contents(supersedes, packs);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new CorruptBlobException(blob, "index payload malformed", e);
    }
  }

  /**
   * A pack's entries as the payload encodes them, checked, each decoded when asked for: a loaded
   * index holds its own copy, so the decoded payload need not stay alive as objects.
   */
  static final class Encoded extends AbstractList<PackEntry> implements RandomAccess {
    private final byte[] payload;
    private final int first;
    private final int count;

    Encoded(byte[] payload, int first, int count) {
      this.payload = payload;
      this.first = first;
      this.count = count;
    }

    @Override
    public PackEntry get(int i) {
      int at = first + Objects.checkIndex(i, count) * PackEntry.ENCODED_BYTES;
      return getEntry(ByteBuffer.wrap(payload, at, PackEntry.ENCODED_BYTES));
    }

    @Override
    public int size() {
      return count;
    }

    /** Appends every entry to {@code table} as of pack {@code pack}, making no objects. */
    void appendTo(ChunkTable table, int pack) {
      for (int i = 0, at = first; i < count; i++, at += PackEntry.ENCODED_BYTES) {
        table.append(payload, at, pack);
      }
    }
  }

  static void putEntry(ByteBuffer out, PackEntry e) {
    out.put(e.id().bytes());
    out.put(e.type().code());
    out.putInt(e.offset());
    out.putInt(e.length());
    out.putInt(e.rawLength());
  }

  /**
   * Checks what a reader relies on before reading a chunk: {@code offset ≥ 8} (after the pack
   * magic), {@code length ≥} {@link Aead#OVERHEAD}, {@code rawLength ≥ 0}.
   *
   * @throws CorruptBlobException naming {@code blob} otherwise
   */
  static PackEntry checkEntry(String blob, String pack, PackEntry e) throws CorruptBlobException {
    if (!fits(e.offset(), e.length(), e.rawLength())) {
      throw new CorruptBlobException(
          blob,
          "entry for chunk "
              + e.id().hex()
              + " in "
              + pack
              + " out of bounds (offset "
              + e.offset()
              + ", length "
              + e.length()
              + ", rawLength "
              + e.rawLength()
              + ")");
    }
    return e;
  }

  private static boolean fits(int offset, int length, int rawLength) {
    return offset >= Pack.MAGIC.length
        && length >= Aead.OVERHEAD
        && rawLength >= 0
        && (long) offset + length <= Integer.MAX_VALUE;
  }

  /**
   * {@link #checkEntry} of the entry at {@code in}'s position, making objects only to refuse it.
   */
  private static void checkEncoded(String blob, String pack, ByteBuffer in)
      throws CorruptBlobException {
    int at = in.position();
    in.position(at + Id.BYTES);
    ChunkType.of(in.get());
    if (!fits(in.getInt(), in.getInt(), in.getInt())) {
      checkEntry(blob, pack, getEntry(in.position(at)));
    }
  }

  static PackEntry getEntry(ByteBuffer in) {
    Id id = readId(in);
    ChunkType type = ChunkType.of(in.get());
    return new PackEntry(id, type, in.getInt(), in.getInt(), in.getInt());
  }

  private static Id readId(ByteBuffer in) {
    byte[] bytes = new byte[Id.BYTES];
    in.get(bytes);
    return Id.of(bytes);
  }
}
