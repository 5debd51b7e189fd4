package dev.stele.repo;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * The memory behind {@link Index}: every pack entry it was given, in append-only pages of primitive
 * arrays, and an open-addressing hash table (linear probing) from a chunk id to the ordinal of one
 * of its entries. An entry costs 48 bytes (its id, then its pack's ordinal and type, offset, length
 * and raw length as ints) and the table 5 to 11 more, against about 170 bytes for a map of {@link
 * Location} objects.
 *
 * <p>Concurrency: one writer at a time ({@link #append} and {@link #put} are called under the
 * caller's lock); readers never lock. An entry never changes once appended; a table slot changes
 * only from empty to an entry, or from one entry to another of the same id; a slot is written with
 * release semantics after the entry it names and read with acquire semantics, so a reader that sees
 * an ordinal sees its entry. A resize fills a new table and then publishes it, and leaves the old
 * one as it was: a reader still probing the old table finds every entry it held.
 */
final class ChunkTable {
  private static final int PAGE_BITS = 12;
  private static final int PAGE = 1 << PAGE_BITS;
  private static final int FIELDS = 4; // pack << TYPE_BITS | type, offset, length, rawLength
  private static final int TYPE_BITS = 4;
  private static final int MAX_PACKS = 1 << (31 - TYPE_BITS);
  private static final int MAX_SLOTS = 1 << 30;
  private static final ChunkType[] TYPES = ChunkType.values();
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(int[].class);

  private static final class Page {
    final byte[] ids = new byte[PAGE * Id.BYTES];
    final int[] fields = new int[PAGE * FIELDS];
  }

  private volatile Page[] pages = new Page[0];

  /** Entry ordinal + 1 per slot; 0 is empty. */
  private volatile int[] slots = new int[1024];

  private int size;
  private volatile int distinct;

  /** The number of distinct ids. */
  int distinct() {
    return distinct;
  }

  /** The number of entries appended, which is the ordinal of the next. */
  int size() {
    return size;
  }

  /** Stores an entry of the pack with ordinal {@code pack}; returns its ordinal. Writer only. */
  int append(PackEntry e, int pack) {
    int ordinal = next(pack);
    Page page = pages[ordinal >>> PAGE_BITS];
    int at = ordinal & (PAGE - 1);
    e.id().writeTo(page.ids, at * Id.BYTES);
    set(page, at, pack, e.type(), e.offset(), e.length(), e.rawLength());
    return ordinal;
  }

  /**
   * {@link #append} of the entry that {@code encoded} holds from {@code off} in an index blob's
   * layout ({@link IndexCodec}), checked, without making its objects. Writer only.
   */
  int append(byte[] encoded, int off, int pack) {
    int ordinal = next(pack);
    Page page = pages[ordinal >>> PAGE_BITS];
    int at = ordinal & (PAGE - 1);
    System.arraycopy(encoded, off, page.ids, at * Id.BYTES, Id.BYTES);
    int i = off + Id.BYTES;
    ChunkType type = ChunkType.of(encoded[i]);
    set(page, at, pack, type, intAt(encoded, i + 1), intAt(encoded, i + 5), intAt(encoded, i + 9));
    return ordinal;
  }

  /** Makes room for {@code more} entries with distinct ids beyond those held. Writer only. */
  void reserve(int more) {
    while ((distinct + (long) more) * 4 > slots.length * 3L && slots.length < MAX_SLOTS) {
      grow();
    }
  }

  /** The ordinal of the next entry, its page made. */
  private int next(int pack) {
    if (pack < 0 || pack >= MAX_PACKS) {
      throw new IllegalStateException("more packs than an index can hold in memory: " + pack);
    }
    if (size == Integer.MAX_VALUE - 1) {
      throw new IllegalStateException("more pack entries than an index can hold in memory");
    }
    int ordinal = size;
    Page[] p = pages;
    if (ordinal >>> PAGE_BITS == p.length) {
      p = Arrays.copyOf(p, p.length + 1);
      p[p.length - 1] = new Page();
      pages = p;
    }
    size = ordinal + 1;
    return ordinal;
  }

  private static int intAt(byte[] b, int i) {
    return (b[i] & 0xff) << 24
        | (b[i + 1] & 0xff) << 16
        | (b[i + 2] & 0xff) << 8
        | (b[i + 3] & 0xff);
  }

  @SuppressWarnings("EnumOrdinal") // this process's memory, never stored
  private static void set(
      Page page, int at, int pack, ChunkType type, int offset, int length, int rawLength) {
    int f = at * FIELDS;
    page.fields[f] = pack << TYPE_BITS | type.ordinal();
    page.fields[f + 1] = offset;
    page.fields[f + 2] = length;
    page.fields[f + 3] = rawLength;
  }

  /**
   * Makes entry {@code ordinal} the one its id finds: if the id has none yet, or if {@code
   * replaces} accepts the ordinal of the one it has. Writer only.
   */
  @SuppressWarnings("NonAtomicVolatileUpdate") // one writer at a time
  void put(int ordinal, IntPredicate replaces) {
    Page page = pages[ordinal >>> PAGE_BITS];
    int idAt = (ordinal & (PAGE - 1)) * Id.BYTES;
    int[] s = slots;
    int mask = s.length - 1;
    for (int i = IdTable.start(Id.hashAt(page.ids, idAt), mask); ; i = (i + 1) & mask) {
      int held = s[i] - 1; // the writer is the only one to write slots
      if (held < 0) {
        if ((distinct + 1L) * 4 > s.length * 3L) {
          grow();
          put(ordinal, replaces);
          return;
        }
        SLOT.setRelease(s, i, ordinal + 1);
        distinct = distinct + 1;
        return;
      }
      if (sameId(held, page.ids, idAt)) {
        if (replaces.test(held)) {
          SLOT.setRelease(s, i, ordinal + 1);
        }
        return;
      }
    }
  }

  /** The ordinal of the entry {@code id} finds, or -1. */
  int find(Id id) {
    int[] s = slots;
    int mask = s.length - 1;
    for (int i = IdTable.start(id.hashCode(), mask); ; i = (i + 1) & mask) {
      int held = (int) SLOT.getAcquire(s, i) - 1;
      if (held < 0) {
        return -1;
      }
      Page page = pages[held >>> PAGE_BITS];
      if (id.isAt(page.ids, (held & (PAGE - 1)) * Id.BYTES)) {
        return held;
      }
    }
  }

  /** The pack ordinal of entry {@code ordinal}. */
  int pack(int ordinal) {
    return field(ordinal, 0) >>> TYPE_BITS;
  }

  /** Entry {@code ordinal}, as a new object. */
  PackEntry entry(int ordinal) {
    Page page = pages[ordinal >>> PAGE_BITS];
    int at = ordinal & (PAGE - 1);
    int f = at * FIELDS;
    return new PackEntry(
        Id.read(page.ids, at * Id.BYTES),
        TYPES[page.fields[f] & ((1 << TYPE_BITS) - 1)],
        page.fields[f + 1],
        page.fields[f + 2],
        page.fields[f + 3]);
  }

  private int field(int ordinal, int field) {
    return pages[ordinal >>> PAGE_BITS].fields[(ordinal & (PAGE - 1)) * FIELDS + field];
  }

  private boolean sameId(int ordinal, byte[] ids, int idAt) {
    Page page = pages[ordinal >>> PAGE_BITS];
    int at = (ordinal & (PAGE - 1)) * Id.BYTES;
    return Arrays.equals(page.ids, at, at + Id.BYTES, ids, idAt, idAt + Id.BYTES);
  }

  /** Doubles the table into a new array, published only once full. Writer only. */
  private void grow() {
    int[] old = slots;
    if (old.length == MAX_SLOTS) {
      throw new IllegalStateException("more chunks than an index can hold in memory");
    }
    int[] grown = new int[old.length * 2];
    int mask = grown.length - 1;
    for (int held : old) {
      if (held != 0) {
        Page page = pages[(held - 1) >>> PAGE_BITS];
        int i = IdTable.start(Id.hashAt(page.ids, ((held - 1) & (PAGE - 1)) * Id.BYTES), mask);
        while (grown[i] != 0) {
          i = (i + 1) & mask;
        }
        grown[i] = held;
      }
    }
    slots = grown;
  }
}
