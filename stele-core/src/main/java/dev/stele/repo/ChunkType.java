package dev.stele.repo;

/** What a chunk holds: file data, or an encoded directory tree. */
public enum ChunkType {
  DATA,
  TREE;

  byte code() {
    return (byte) ordinal();
  }

  static ChunkType of(byte code) {
    if (code < 0 || code >= values().length) {
      throw new IllegalArgumentException("unknown chunk type " + code);
    }
    return values()[code];
  }
}
