package dev.stele.repo;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

/**
 * Which pack holds which chunk: the merge of every live index blob (those no other blob
 * supersedes), plus what this process wrote since it loaded.
 *
 * <p>Packs that maintenance has marked for deletion still serve reads, but {@link #hasLive} does
 * not count their chunks, so a writer stores such a chunk again rather than depend on a pack that
 * is about to go.
 *
 * <p>Held in a {@link ChunkTable}, about 56 bytes per chunk; {@link #find} and {@link #packs} make
 * {@link Location} and {@link PackEntry} objects on demand.
 *
 * <p>Concurrency: safe for concurrent reads and {@link #add}s. Adds take a lock; reads do not. A
 * pack appears in {@link #packs} with all its entries before {@link #find} returns its chunks.
 */
public final class Index {
  private final ChunkTable table = new ChunkTable();

  /** Each pack's entries: a run of consecutive entries in {@link #table}. */
  private final Map<String, Run> packs = new ConcurrentHashMap<>();

  /** Pack names by ordinal; written under {@link #writeLock} before any entry names them. */
  private volatile String[] names = new String[16];

  private int packCount;
  private final Object writeLock = new Object();
  private final Map<String, List<PackEntry>> packsView = new PacksView();
  private final Set<String> marked;
  private final Set<String> distrusted = ConcurrentHashMap.newKeySet();
  private final List<Id> blobs;
  private final List<Id> superseded;
  private final List<Id> damaged;
  private final Set<String> recovered = ConcurrentHashMap.newKeySet();
  private FooterRecovery recovery;

  /** The entries {@code first} to {@code first + count - 1} of the table, of pack {@code pack}. */
  private record Run(int pack, int first, int count) {}

  Index(
      List<Id> liveBlobs,
      List<Id> supersededBlobs,
      List<Id> damagedBlobs,
      Set<String> markedPacks) {
    this.blobs = List.copyOf(liveBlobs);
    this.superseded = List.copyOf(supersededBlobs);
    this.damaged = List.copyOf(damagedBlobs);
    this.marked = Set.copyOf(markedPacks);
  }

  /**
   * Records the entries of one pack, replacing those it had; a chunk in an unmarked pack wins over
   * a marked or distrusted one.
   */
  void add(String pack, List<PackEntry> entries) {
    synchronized (writeLock) {
      Run known = packs.get(pack);
      if (known != null && entries.equals(entries(known))) {
        return; // named again by a compacted index: nothing new, and nothing to store twice
      }
      int ordinal = known != null ? known.pack() : newPack(pack);
      boolean packMarked = marked.contains(pack);
      IntPredicate replaces = held -> !packMarked && outgoing(names[table.pack(held)]);
      int first = table.size();
      if (entries instanceof IndexCodec.Encoded encoded) {
        encoded.appendTo(table, ordinal);
      } else {
        for (PackEntry e : entries) {
          table.append(e, ordinal);
        }
      }
      packs.put(pack, new Run(ordinal, first, entries.size()));
      for (int entry = first; entry < first + entries.size(); entry++) {
        table.put(entry, replaces);
      }
    }
  }

  /** Makes room for {@code entries} more entries, so that adding them does not regrow the table. */
  void reserve(int entries) {
    synchronized (writeLock) {
      table.reserve(entries);
    }
  }

  private int newPack(String pack) {
    String[] n = names;
    if (packCount == n.length) {
      n = Arrays.copyOf(n, n.length * 2);
    }
    n[packCount] = pack;
    names = n; // publishes the name before any entry names it
    return packCount++;
  }

  private boolean outgoing(String pack) {
    return marked.contains(pack) || distrusted.contains(pack);
  }

  /** Where {@code id} can be read, or null. */
  public Location find(Id id) {
    int entry = table.find(id);
    return entry < 0 ? null : new Location(names[table.pack(entry)], table.entry(entry));
  }

  /** True if {@code id} is stored in a pack that is neither marked for deletion nor distrusted. */
  boolean hasLive(Id id) {
    return livePack(id) != null;
  }

  /** The pack of {@code id} if it is neither marked for deletion nor distrusted, else null. */
  String livePack(Id id) {
    int entry = table.find(id);
    String pack = entry < 0 ? null : names[table.pack(entry)];
    return pack == null || outgoing(pack) ? null : pack;
  }

  /**
   * Stops counting the chunks of {@code packs} as live, as if they were marked: a writer that found
   * them damaged stores their chunks again instead of depending on them. Reads still try them.
   */
  public void distrust(Set<String> packs) {
    distrusted.addAll(packs);
  }

  /** The number of distinct chunks. */
  public int chunkCount() {
    return table.distinct();
  }

  /**
   * Every pack this index names, with its entries: an unmodifiable view whose lists make each
   * {@link PackEntry} when asked for it, so a caller that walks every pack holds one at a time.
   */
  public Map<String, List<PackEntry>> packs() {
    return packsView;
  }

  private List<PackEntry> entries(Run run) {
    return new Entries(run.first(), run.count());
  }

  /** One pack's entries, read from the table on each {@link #get}. */
  private final class Entries extends AbstractList<PackEntry> implements RandomAccess {
    private final int first;
    private final int count;

    Entries(int first, int count) {
      this.first = first;
      this.count = count;
    }

    @Override
    public PackEntry get(int i) {
      return table.entry(first + Objects.checkIndex(i, count));
    }

    @Override
    public int size() {
      return count;
    }
  }

  private final class PacksView extends AbstractMap<String, List<PackEntry>> {
    @Override
    public int size() {
      return packs.size();
    }

    @Override
    public boolean containsKey(Object pack) {
      return packs.containsKey(pack);
    }

    @Override
    public List<PackEntry> get(Object pack) {
      Run run = packs.get(pack);
      return run == null ? null : entries(run);
    }

    @Override
    public Set<Map.Entry<String, List<PackEntry>>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return packs.size();
        }

        @Override
        public Iterator<Map.Entry<String, List<PackEntry>>> iterator() {
          Iterator<Map.Entry<String, Run>> runs = packs.entrySet().iterator();
          return new Iterator<>() {
            @Override
            public boolean hasNext() {
              return runs.hasNext();
            }

            @Override
            public Map.Entry<String, List<PackEntry>> next() {
              Map.Entry<String, Run> run = runs.next();
              return Map.entry(run.getKey(), entries(run.getValue()));
            }
          };
        }
      };
    }
  }

  /** The index blobs this index was loaded from. */
  public List<Id> blobs() {
    return blobs;
  }

  /**
   * Index blobs still stored that a live one supersedes: normally named in the maintenance record
   * of the run that superseded them, unless that run died before writing its record.
   */
  public List<Id> supersededBlobs() {
    return superseded;
  }

  /** Index blobs that failed verification: their packs are known only from footers. */
  public List<Id> damagedBlobs() {
    return damaged;
  }

  /**
   * Packs that no index blob named but whose footers supplied a chunk a reader needed: an index
   * blob naming them is missing or damaged, and the next compacted index must name them.
   */
  public Set<String> recoveredPacks() {
    return Collections.unmodifiableSet(recovered);
  }

  void recovered(String pack) {
    recovered.add(pack);
  }

  FooterRecovery recovery() {
    return recovery;
  }

  void recovery(FooterRecovery r) {
    recovery = r;
  }

  /** Packs marked for deletion by maintenance records that this index saw. */
  public Set<String> markedPacks() {
    return marked;
  }

  /** The live index blobs among {@code all}: those that no blob in {@code all} supersedes. */
  static List<Id> live(Map<Id, List<Id>> supersedesByBlob) {
    Set<Id> superseded = new HashSet<>();
    supersedesByBlob.values().forEach(superseded::addAll);
    List<Id> live = new ArrayList<>();
    for (Id blob : supersedesByBlob.keySet()) {
      if (!superseded.contains(blob)) {
        live.add(blob);
      }
    }
    Collections.sort(live);
    return live;
  }
}
