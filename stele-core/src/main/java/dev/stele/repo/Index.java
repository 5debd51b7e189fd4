package dev.stele.repo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which pack holds which chunk: the merge of every live index blob (those no other blob
 * supersedes), plus what this process wrote since it loaded.
 *
 * <p>Packs that maintenance has marked for deletion still serve reads, but {@link #hasLive} does
 * not count their chunks, so a writer stores such a chunk again rather than depend on a pack that
 * is about to go.
 *
 * <p>Concurrency: safe for concurrent reads and {@link #add}s.
 */
public final class Index {
  private final Map<Id, Location> chunks = new ConcurrentHashMap<>();
  private final Map<String, List<PackEntry>> packs = new ConcurrentHashMap<>();
  private final Set<String> marked;
  private final Set<String> distrusted = ConcurrentHashMap.newKeySet();
  private final List<Id> blobs;
  private final List<Id> superseded;
  private final List<Id> damaged;
  private final Set<String> recovered = ConcurrentHashMap.newKeySet();
  private FooterRecovery recovery;

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
   * Records the entries of one pack; a chunk in an unmarked pack wins over a marked or distrusted
   * one.
   */
  void add(String pack, List<PackEntry> entries) {
    packs.put(pack, List.copyOf(entries));
    boolean packMarked = marked.contains(pack);
    for (PackEntry e : entries) {
      Location location = new Location(pack, e);
      if (packMarked) {
        chunks.putIfAbsent(e.id(), location);
      } else {
        chunks.merge(e.id(), location, (old, neu) -> outgoing(old.pack()) ? neu : old);
      }
    }
  }

  private boolean outgoing(String pack) {
    return marked.contains(pack) || distrusted.contains(pack);
  }

  /** Where {@code id} can be read, or null. */
  public Location find(Id id) {
    return chunks.get(id);
  }

  /** True if {@code id} is stored in a pack that is neither marked for deletion nor distrusted. */
  boolean hasLive(Id id) {
    Location location = chunks.get(id);
    return location != null && !outgoing(location.pack());
  }

  /**
   * Stops counting the chunks of {@code packs} as live, as if they were marked: a writer that found
   * them damaged stores their chunks again instead of depending on them. Reads still try them.
   */
  public void distrust(Set<String> packs) {
    distrusted.addAll(packs);
  }

  public int chunkCount() {
    return chunks.size();
  }

  /** Every pack this index names, with its entries. */
  public Map<String, List<PackEntry>> packs() {
    return Collections.unmodifiableMap(packs);
  }

  /** Every chunk location, one per chunk id. */
  public Collection<Location> locations() {
    return Collections.unmodifiableCollection(chunks.values());
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
