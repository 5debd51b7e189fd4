package dev.stele.repo;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of ids, each with a small non-negative number, held in flat arrays: 36 bytes per id and a
 * table of 4 to 8 bytes, no objects. A walk of a repository's snapshots reaches every chunk, some
 * hundreds of thousands; in a {@code HashMap<Id, …>} each cost three objects, which the collector
 * copied from young to old generation and marked again at every full collection: a fifth of a
 * structural {@code verify}'s CPU.
 *
 * <p>Concurrency: not thread-safe.
 */
public final class IdTable implements Iterable<Id> {
  private byte[] ids = new byte[256 * Id.BYTES];
  private int[] values = new int[256];
  private int[] slots = new int[512]; // entry + 1; 0 is empty
  private int size;

  /**
   * Adds {@code id} with {@code value} unless it is held; returns -1 if it was added, else the
   * value it holds.
   */
  public int putIfAbsent(Id id, int value) {
    if (value < 0) {
      throw new IllegalArgumentException("negative value " + value);
    }
    int mask = slots.length - 1;
    int i = start(id.hashCode(), mask);
    for (int held; (held = slots[i]) != 0; i = (i + 1) & mask) {
      if (id.isAt(ids, (held - 1) * Id.BYTES)) {
        return values[held - 1];
      }
    }
    if (size == values.length) {
      ids = Arrays.copyOf(ids, 2 * ids.length);
      values = Arrays.copyOf(values, 2 * values.length);
    }
    id.writeTo(ids, size * Id.BYTES);
    values[size] = value;
    slots[i] = ++size;
    if (2 * size > slots.length) {
      rehash(2 * slots.length);
    }
    return -1;
  }

  /** The value {@code id} holds, or -1 if it is not in the table. */
  public int get(Id id) {
    int mask = slots.length - 1;
    for (int i = start(id.hashCode(), mask), held; (held = slots[i]) != 0; i = (i + 1) & mask) {
      if (id.isAt(ids, (held - 1) * Id.BYTES)) {
        return values[held - 1];
      }
    }
    return -1;
  }

  public int size() {
    return size;
  }

  /** The ids in the order they were added, each a new object. */
  @Override
  public Iterator<Id> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public Id next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        return Id.read(ids, Id.BYTES * next++);
      }
    };
  }

  private void rehash(int length) {
    int[] grown = new int[length];
    int mask = length - 1;
    for (int e = 0; e < size; e++) {
      int i = start(Id.hashAt(ids, e * Id.BYTES), mask);
      while (grown[i] != 0) {
        i = (i + 1) & mask;
      }
      grown[i] = e + 1;
    }
    slots = grown;
  }

  /**
   * Where {@code hash} starts its probe in a table of {@code mask + 1} slots (also {@link
   * ChunkTable}'s). Ids are keyed hashes, but spread the bits anyway: a table must not trust its
   * keys' order.
   */
  static int start(int hash, int mask) {
    int h = hash * 0x9E3779B9;
    return (h ^ h >>> 16) & mask;
  }
}
