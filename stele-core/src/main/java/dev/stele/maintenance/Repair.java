package dev.stele.maintenance;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import dev.stele.repo.BlobKind;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.PackCheck;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Repairs damaged packs and lost index entries by creating blobs — never deleting or rewriting one.
 *
 * <ol>
 *   <li><b>Read.</b> Every pack is read whole and checked as {@code verify --read-data} does. A
 *       pack the index names that is missing, short or fails a check is <i>damaged</i>; so is a
 *       pack no index names that fails one. A sound pack no index names (its index blob lost, or a
 *       crashed writer's) is taken into the index from its footer, even if maintenance marked it
 *       (it marks every pack no index names). Packs an earlier repair marked, and those a failed
 *       writer recorded as abandoned, are left alone.
 *   <li><b>Salvage.</b> The chunks of damaged packs that verify (in the current version, or an
 *       older one on a store that keeps them) and that no sound pack holds are copied into new
 *       packs.
 *   <li><b>Index.</b> One new index blob supersedes every index blob loaded (and every unreadable
 *       one) and names every sound pack, the footer-indexed ones and the new ones — and no damaged
 *       pack. A lost chunk is then in no index: the next backup that meets its data stores it
 *       again, and every snapshot naming it is whole again.
 *   <li><b>Mark.</b> A maintenance record marks the damaged packs, so no index recovery takes them
 *       back and maintenance deletes them once the sweep window and their retention allow.
 * </ol>
 *
 * The order is the crash-safe one: until the index exists, the new packs are unreferenced (a crash
 * leaves them for maintenance to collect); once it exists, no live index names a damaged pack, so
 * no writer can deduplicate onto one even before the record marks it; a crash before the record
 * leaves the damaged packs unindexed and unmarked, and the next repair finds them damaged again and
 * marks them, salvaging nothing twice. Marking first would leave the packs in the live index.
 *
 * <p>A repository with nothing to repair gets no write at all. Lastly every live snapshot is walked
 * against the repaired index and reported complete, or incomplete with the paths it cannot restore.
 */
public final class Repair {
  private final Repository repo;
  private final BlobStore store;

  public Repair(Repository repo) {
    this.repo = repo;
    this.store = repo.store();
  }

  /** A damaged pack: what is wrong with it, and how many of its chunks were copied or lost. */
  public record DamagedPack(String name, String problem, int salvaged, int lost) {}

  /**
   * What a repair found and wrote.
   *
   * @param damaged the damaged packs, by name
   * @param footerIndexed sound packs no index named, taken into the index from their footers
   * @param newPacks the packs this run wrote salvaged chunks into
   * @param index the index blob this run wrote, or null if it wrote nothing
   * @param record the maintenance record this run wrote, or null if it wrote nothing
   * @param snapshots every live snapshot, oldest first, as restorable as it is after the repair
   * @param problems damage repair cannot mend (an unreadable snapshot manifest), one line each
   */
  public record Result(
      List<DamagedPack> damaged,
      List<String> footerIndexed,
      List<String> newPacks,
      String index,
      String record,
      List<SnapshotDamage.State> snapshots,
      List<String> problems) {
    /** True if this run created no blob. */
    public boolean wroteNothing() {
      return index == null;
    }

    public List<SnapshotDamage.State> incomplete() {
      return snapshots.stream().filter(s -> !s.complete()).toList();
    }
  }

  public Result run() throws IOException {
    Instant now = repo.clock().instant();
    // An unreadable manifest is a problem to report, not a stop.
    SnapshotCatalog.Scan scan = new SnapshotCatalog(repo).scan();
    List<SnapshotCatalog.Entry> live = scan.live();
    List<String> problems = new ArrayList<>();
    scan.unreadable().forEach(u -> problems.add(u.problem().getMessage()));
    repo.reloadIndex();
    Index index = repo.loadIndex();
    Map<String, BlobInfo> listed = PackCheck.listPacks(store);

    // Packs an earlier repair found damaged, or a failed writer abandoned before any index named
    // them; maintenance's marks are not trusted here, since maintenance marks a pack no index
    // names even when its index blob was merely lost.
    Set<String> notTakenBack = new HashSet<>();
    for (MaintenanceRecord r : repo.maintenanceRecords().values()) {
      if (r.marksDamage() || r.isAbandoned()) {
        notTakenBack.addAll(r.markedPacks());
      }
    }
    Map<String, String> damage = new TreeMap<>(PackCheck.missingOrShort(index, listed));
    Map<String, List<PackEntry>> footerIndexed = new TreeMap<>();
    Map<String, List<PackEntry>> unindexedDamaged = new TreeMap<>();
    for (BlobInfo info : listed.values()) {
      String pack = info.name();
      List<PackEntry> indexed = index.packs().get(pack);
      if (damage.containsKey(pack) || (indexed == null && notTakenBack.contains(pack))) {
        continue;
      }
      byte[] bytes = readOrNull(pack);
      if (bytes == null) {
        continue; // deleted by a concurrent maintenance run: it was marked
      }
      List<String> found = PackCheck.check(repo, pack, bytes, indexed);
      if (!found.isEmpty()) {
        damage.put(pack, found.get(0));
      }
      if (indexed == null) {
        (found.isEmpty() ? footerIndexed : unindexedDamaged).put(pack, footerOrEmpty(pack, bytes));
      }
    }
    if (damage.isEmpty() && footerIndexed.isEmpty()) {
      return new Result(List.of(), List.of(), List.of(), null, null, report(live), problems);
    }

    Map<String, List<PackEntry>> known = new TreeMap<>(index.packs());
    known.putAll(footerIndexed);
    known.putAll(unindexedDamaged);
    Set<String> before = Set.copyOf(index.packs().keySet());
    List<DamagedPack> damaged = salvage(live, damage, known, listed.keySet());
    List<String> newPacks =
        repo.index().packs().keySet().stream().filter(p -> !before.contains(p)).sorted().toList();

    Map<String, List<PackEntry>> packs = new HashMap<>(repo.index().packs());
    packs.keySet().removeAll(damage.keySet());
    packs.putAll(footerIndexed);
    List<Id> superseded = new ArrayList<>(index.blobs());
    superseded.addAll(index.damagedBlobs());
    Id newIndex = repo.writeIndex(superseded, packs);

    MaintenanceRecord record =
        new MaintenanceRecord(
            MaintenanceRecord.VERSION,
            now,
            MaintenanceRecord.REPAIR,
            damage.keySet().stream().filter(listed::containsKey).toList(),
            superseded.stream().map(BlobKind.INDEX::nameOf).toList(),
            List.of(),
            List.of(),
            List.of(),
            damaged.stream().filter(d -> d.salvaged() > 0).map(DamagedPack::name).toList(),
            List.of());
    Id recordId = repo.writeBlob(BlobKind.MAINTENANCE, record.toJson());
    repo.reloadIndex();
    return new Result(
        damaged,
        List.copyOf(footerIndexed.keySet()),
        newPacks,
        BlobKind.INDEX.nameOf(newIndex),
        BlobKind.MAINTENANCE.nameOf(recordId),
        report(live),
        problems);
  }

  /**
   * Copies what can be read of each damaged pack, and no sound pack holds, into new packs.
   *
   * @param known every pack's entries, from the index or else its footer
   */
  private List<DamagedPack> salvage(
      List<SnapshotCatalog.Entry> live,
      Map<String, String> damage,
      Map<String, List<PackEntry>> known,
      Set<String> listed)
      throws IOException {
    Set<Id> taken = new HashSet<>();
    known.forEach(
        (pack, list) -> {
          if (!damage.containsKey(pack)) {
            list.forEach(e -> taken.add(e.id()));
          }
        });
    Map<String, List<PackEntry>> wanted = new TreeMap<>();
    for (String pack : damage.keySet()) {
      List<PackEntry> copy = new ArrayList<>();
      for (PackEntry e : known.getOrDefault(pack, List.of())) {
        if (taken.add(e.id())) {
          copy.add(e);
        }
      }
      wanted.put(pack, copy);
    }
    // The new packs are retained as long as the snapshots needing their chunks from the moment
    // they exist (write-once.md, "Retention follows the data's need").
    Reachability reach = Reachability.of(repo, live, repo.format().minimumRetention());
    Instant until =
        wanted.values().stream()
            .flatMap(List::stream)
            .map(e -> reach.neededUntil(e.id()))
            .filter(Objects::nonNull)
            .max(Comparator.naturalOrder())
            .orElse(null);
    List<DamagedPack> damaged = new ArrayList<>();
    try (ChunkWriter writer = repo.newWriter(2, until)) {
      for (var w : wanted.entrySet()) {
        String pack = w.getKey();
        byte[] bytes = listed.contains(pack) ? readOrNull(pack) : null;
        int lost = ChunkCopy.copy(repo, writer, pack, bytes, w.getValue()).size();
        damaged.add(new DamagedPack(pack, damage.get(pack), w.getValue().size() - lost, lost));
      }
      writer.flush();
    }
    return damaged;
  }

  private List<PackEntry> footerOrEmpty(String pack, byte[] bytes) {
    try {
      return PackCheck.footer(repo, pack, bytes);
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The whole of {@code pack}, or null if it is gone. */
  private byte[] readOrNull(String pack) throws IOException {
    try {
      return store.read(pack);
    } catch (BlobNotFoundException e) {
      return null;
    }
  }

  private List<SnapshotDamage.State> report(List<SnapshotCatalog.Entry> live) throws IOException {
    return new SnapshotDamage(repo).states(live);
  }
}
