package dev.stele.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded inputs and helpers shared by the chunking tests. */
final class TestData {
  /** Small bounds so that a few MiB give hundreds of chunks. */
  static final ChunkerParams SMALL = new ChunkerParams(2 << 10, 8 << 10, 32 << 10);

  private TestData() {}

  static byte[] key(int first) {
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (first + i);
    }
    return key;
  }

  static FastCdc chunker(ChunkerParams params, int keyStart) {
    return new FastCdc(params, GearTable.fromKey(key(keyStart)));
  }

  static byte[] random(long seed, int size) {
    byte[] data = new byte[size];
    new SplittableRandom(seed).nextBytes(data);
    return data;
  }

  /** Chunk lengths from cutting the whole array at once. */
  static List<Integer> cutAll(FastCdc cdc, byte[] data) {
    List<Integer> lengths = new ArrayList<>();
    int off = 0;
    while (off < data.length) {
      int n = cdc.cut(data, off, data.length - off, true);
      lengths.add(n);
      off += n;
    }
    return lengths;
  }
}
