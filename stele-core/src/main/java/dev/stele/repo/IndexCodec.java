package dev.stele.repo;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  static byte[] encode(List<Id> supersedes, Map<String, List<PackEntry>> packs) {
    int size = 1 + 4 + supersedes.size() * Id.BYTES + 4;
    for (var pack : packs.entrySet()) {
      size += 2 + pack.getKey().length() + 4 + pack.getValue().size() * PackEntry.ENCODED_BYTES;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put((byte) 1);
    out.putInt(supersedes.size());
    supersedes.forEach(id -> out.put(id.bytes()));
    out.putInt(packs.size());
    for (var pack : packs.entrySet()) {
      byte[] name = pack.getKey().getBytes(StandardCharsets.UTF_8);
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
      List<Id> supersedes = new ArrayList<>(superseded);
      for (int i = 0; i < superseded; i++) {
        supersedes.add(readId(in));
      }
      int packCount = in.getInt();
      Map<String, List<PackEntry>> packs = new LinkedHashMap<>();
      for (int p = 0; p < packCount; p++) {
        byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
        in.get(name);
        int count = in.getInt();
        List<PackEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          entries.add(getEntry(in));
        }
        packs.put(new String(name, StandardCharsets.UTF_8).intern(), entries);
      }
      if (in.hasRemaining()) {
        throw new CorruptBlobException(blob, "trailing bytes in index");
      }
      return new Contents(supersedes, packs);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new CorruptBlobException(blob, "index payload malformed", e);
    }
  }

  static void putEntry(ByteBuffer out, PackEntry e) {
    out.put(e.id().bytes());
    out.put(e.type().code());
    out.putInt(e.offset());
    out.putInt(e.length());
    out.putInt(e.rawLength());
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
