package dev.stele.repo;

/**
 * Where one chunk lies in its pack.
 *
 * @param offset byte offset of the sealed chunk in the pack
 * @param length length of the sealed chunk
 * @param rawLength length of the chunk's plaintext
 */
public record PackEntry(Id id, ChunkType type, int offset, int length, int rawLength) {
  static final int ENCODED_BYTES = Id.BYTES + 1 + 4 + 4 + 4;
}
