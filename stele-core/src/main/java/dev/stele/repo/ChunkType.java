package dev.stele.repo;

/** What a chunk holds: file data, or an encoded directory tree. */
public enum ChunkType {
  DATA(0),
  TREE(1);

  // values() clones its array on every call, and of() runs once per index entry read.
  private static final ChunkType[] TYPES = values();

  /** The type's byte in the index and in a chunk's associated data (docs/format.md). */
  private final byte code;

  ChunkType(int code) {
    this.code = (byte) code;
  }

  byte code() {
    return code;
  }

  static ChunkType of(byte code) {
    for (ChunkType type : TYPES) {
      if (type.code == code) {
        return type;
      }
    }
    throw new IllegalArgumentException("unknown chunk type " + code);
  }
}
