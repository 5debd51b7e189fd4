package dev.stele.maintenance;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.repo.BlobKind;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.PackCheck;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.UnsupportedVersionException;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One maintenance run — the only code in Stele that deletes. Lock-free: writers never wait, and
 * safety comes from unique names and two windows recorded in the repository format.
 *
 * <ol>
 *   <li><b>Decide the sweep.</b> Packs marked by a run at least {@code sweepWindow} ago go if they
 *       still hold nothing a live snapshot needs (or every such chunk has a copy in a pack that
 *       stays); so do packs a failed writer recorded as abandoned, at once, if still no index names
 *       them. A pack still retained is recorded as deferred and tried again by a later run.
 *   <li><b>Rewrite.</b> Packs at least {@code markWindow} old whose dead bytes exceed a quarter
 *       have their live chunks copied, still sealed, into new packs; the old pack is then marked.
 *   <li><b>Compact.</b> One new index blob lists every pack that stays — without the packs about to
 *       be swept, and without marked packs that are already gone — and supersedes the index blobs
 *       loaded at the start. It is durable before any pack is deleted, so a run killed anywhere
 *       never leaves an index naming a deleted pack.
 *   <li><b>Sweep.</b> The packs decided in 1; index blobs superseded at least {@code sweepWindow}
 *       ago; forgotten snapshots' manifests, removed keys, and tombstones whose target is gone.
 *   <li><b>Mark.</b> Packs at least {@code markWindow} old that hold no live chunk, or that no
 *       index names (left by a crashed writer, unless their footer names a chunk snapshots need
 *       that no index has), are marked. Writers do not deduplicate against marked packs, so nothing
 *       new comes to depend on them.
 *   <li><b>Extend.</b> With a retention mode, live packs, snapshot manifests, key and format blobs
 *       whose retention falls short of the latest expiry of the snapshots that use them are
 *       extended (with a week of slack, so extensions are not needed every run).
 * </ol>
 *
 * When the run cannot know everything live snapshots reach — a manifest or a tree cannot be read —
 * it marks, rewrites and sweeps no pack, and says why in its result and record ({@code heldBack});
 * compaction, the other deletions and extension still run. The run ends by writing one maintenance
 * record saying what it did.
 *
 * <p>Long because the order of these steps is the safety argument (docs/design.md), and splitting
 * the run across files would hide it; what each step asks is answered elsewhere ({@link
 * Reachability}, {@link Unlocated}, {@link RetentionNeeds}).
 */
public final class Maintenance {
  static final Duration EXTENSION_SLACK = Repository.EXTENSION_SLACK;
  private static final double REWRITE_DEAD_FRACTION = 0.25;

  private final Repository repo;
  private final BlobStore store;

  public Maintenance(Repository repo) {
    this.repo = repo;
    this.store = repo.store();
  }

  /**
   * What a run did (or, dry, would do).
   *
   * @param heldBack why packs were not marked or deleted, one line each; empty if nothing was
   */
  public record Result(
      MaintenanceRecord record,
      boolean dryRun,
      int packsMarked,
      int deleted,
      int deferred,
      int extended,
      int packsRewritten,
      long bytesFreed,
      List<String> heldBack) {}

  public Result run(boolean dryRun) throws IOException {
    RepositoryFormat format = repo.format();
    Instant now = repo.clock().instant();
    // Snapshots before the index: a writer writes its index blob before its manifest, so every
    // manifest listed here has its chunks in the index loaded next. The other order fails the run
    // whenever a backup finishes between the two reads.
    Map<String, List<Id>> tombstones = repo.tombstones();
    SnapshotCatalog.Scan scan = new SnapshotCatalog(repo).scan(tombstones.keySet());
    List<SnapshotCatalog.Entry> live = scan.live();
    repo.reloadIndex();
    Index index = repo.loadIndex();
    // Strict: a record from a newer Stele stops the run before anything is deleted.
    Map<Id, MaintenanceRecord> records = repo.maintenanceRecords(true);
    Reachability reach = Reachability.of(repo, live, format.minimumRetention());
    List<String> heldBack = new ArrayList<>(unreadable(scan));
    heldBack.addAll(reach.problems());
    boolean holdPacks = !heldBack.isEmpty();
    Unlocated unlocated = new Unlocated(repo, reach);

    Map<String, BlobInfo> packs = PackCheck.listPacks(store);
    Set<String> marked = new HashSet<>();
    Set<String> sweepable = new TreeSet<>();
    Set<String> supersededLongAgo = new TreeSet<>();
    Set<String> recordedSuperseded = new HashSet<>();
    Instant sweepBefore = now.minus(format.sweepWindow());
    for (MaintenanceRecord r : records.values()) {
      marked.addAll(r.markedPacks());
      recordedSuperseded.addAll(r.supersededIndexes());
      if (!r.time().isAfter(sweepBefore)) {
        sweepable.addAll(r.markedPacks());
        supersededLongAgo.addAll(r.supersededIndexes());
      } else if (r.isAbandoned()) {
        // Never indexed, so nobody can depend on them: no window to wait for.
        r.markedPacks().stream().filter(p -> !index.packs().containsKey(p)).forEach(sweepable::add);
      }
    }
    sweepable.retainAll(packs.keySet());

    Run run = new Run(dryRun);
    // 1. Decide the sweep; nothing is deleted before the index that no longer names it is durable.
    List<String> sweep = new ArrayList<>();
    if (!holdPacks) {
      Set<Id> heldElsewhere = heldOutside(index, sweepable, packs.keySet());
      for (String pack : sweepable) {
        List<PackEntry> entries = index.packs().get(pack);
        boolean needed =
            entries == null
                ? unlocated.mayBeIn(packs.get(pack), heldBack)
                : stillNeeded(entries, reach, heldElsewhere);
        if (!needed && !run.deferred(pack)) {
          sweep.add(pack);
        }
      }
    }

    // 2. Rewrite packs that are mostly dead, and choose what to mark.
    Instant markBefore = now.minus(format.markWindow());
    List<String> rewrite = new ArrayList<>();
    List<String> toMark = new ArrayList<>();
    for (BlobInfo info : holdPacks ? List.<BlobInfo>of() : packs.values()) {
      String pack = info.name();
      if (marked.contains(pack) || info.created().isAfter(markBefore)) {
        continue;
      }
      List<PackEntry> entries = index.packs().get(pack);
      if (entries == null) {
        if (!unlocated.mayBeIn(info, heldBack)) {
          toMark.add(pack);
        }
        continue;
      }
      long liveBytes = 0;
      long total = 0;
      for (PackEntry e : entries) {
        total += e.length();
        liveBytes += reach.reaches(e.id()) ? e.length() : 0;
      }
      if (liveBytes == 0) {
        toMark.add(pack);
      } else if (total - liveBytes > REWRITE_DEAD_FRACTION * total) {
        rewrite.add(pack);
        toMark.add(pack);
      }
    }
    if (!dryRun && !rewrite.isEmpty()) {
      Set<String> going = new HashSet<>(rewrite);
      going.addAll(marked);
      List<String> unread =
          copyLiveChunks(
              index, rewrite, heldOutside(index, going, packs.keySet()), reach, heldBack);
      rewrite.removeAll(unread);
      toMark.removeAll(unread);
    }

    // 3. Compact the index: what stays, and (a run killed after its deletes but before its index
    // left them named) no marked pack the listing no longer shows.
    Set<String> dropped = new HashSet<>(sweep);
    for (String pack : index.packs().keySet()) {
      if (marked.contains(pack) && !packs.containsKey(pack)) {
        dropped.add(pack);
      }
    }
    // A damaged index blob is superseded once every chunk live snapshots reach is found without
    // it: what else it named is unreachable, and is collected as unindexed packs are.
    List<Id> replaced = new ArrayList<>(index.blobs());
    if (!holdPacks && unlocated.isEmpty()) {
      replaced.addAll(index.damagedBlobs());
    }
    List<String> superseded = new ArrayList<>();
    boolean compact =
        !dropped.isEmpty()
            || !rewrite.isEmpty()
            || replaced.size() > 1
            || !index.recoveredPacks().isEmpty();
    if (!dryRun && compact) {
      Map<String, List<PackEntry>> remaining = new HashMap<>(repo.index().packs());
      remaining.keySet().removeAll(dropped);
      repo.writeIndex(replaced, remaining);
      replaced.forEach(id -> superseded.add(BlobKind.INDEX.nameOf(id)));
    }
    // Blobs superseded by a run that died before its record: this record starts their window.
    for (Id id : index.supersededBlobs()) {
      String name = BlobKind.INDEX.nameOf(id);
      if (!recordedSuperseded.contains(name)) {
        superseded.add(name);
      }
    }

    // 4. Sweep.
    long bytesFreed = 0;
    for (String pack : sweep) {
      if (run.deleteUnretained(pack)) {
        bytesFreed += packs.get(pack).size();
      }
    }
    for (String name : supersededLongAgo) {
      run.deleteIfPresent(name);
    }
    for (var t : tombstones.entrySet()) {
      String target = t.getKey();
      if (!target.startsWith(BlobKind.SNAPSHOT.prefix()) && !isRemovedKey(target)) {
        continue;
      }
      if (exists(target)) {
        run.delete(target);
      } else {
        for (Id tombstone : t.getValue()) {
          run.deleteIfPresent(BlobKind.TOMBSTONE.nameOf(tombstone));
        }
      }
    }

    // 5. Extend retention.
    List<String> extended =
        format.retentionMode() == Retention.Mode.NONE || dryRun
            ? List.of()
            : extendRetention(index, reach, live, run.deleted, toMark);

    MaintenanceRecord record =
        new MaintenanceRecord(
            MaintenanceRecord.VERSION,
            now,
            MaintenanceRecord.FULL,
            toMark,
            superseded,
            run.deleted,
            run.deferred,
            extended,
            rewrite,
            heldBack);
    if (!dryRun) {
      repo.writeBlob(BlobKind.MAINTENANCE, record.toJson());
    }
    return new Result(
        record,
        dryRun,
        toMark.size(),
        run.deleted.size(),
        run.deferred.size(),
        extended.size(),
        rewrite.size(),
        bytesFreed,
        List.copyOf(heldBack));
  }

  /**
   * Why each unreadable manifest holds back the marking and sweeping of packs: what it reaches is
   * unknown. A manifest from a newer Stele stops the run instead (§15 of the format).
   */
  private static List<String> unreadable(SnapshotCatalog.Scan scan) throws IOException {
    List<String> reasons = new ArrayList<>();
    for (SnapshotCatalog.Unreadable u : scan.unreadable()) {
      if (u.problem() instanceof UnsupportedVersionException) {
        throw new IOException(
            "maintenance stopped, nothing deleted: " + u.problem().getMessage() + " (run verify)",
            u.problem());
      }
      reasons.add(
          u.problem().getMessage()
              + ": what snapshot "
              + u.id().shortHex()
              + " reaches is unknown, so no pack is marked or deleted until it is forgotten");
    }
    return reasons;
  }

  /**
   * Chunks held by a pack that the listing shows and that is not in {@code excluded}: copies that
   * stay. A pack the index names but the listing does not show holds nothing.
   */
  private static Set<Id> heldOutside(Index index, Set<String> excluded, Set<String> listed) {
    Set<Id> held = new HashSet<>();
    for (var p : index.packs().entrySet()) {
      if (!excluded.contains(p.getKey()) && listed.contains(p.getKey())) {
        p.getValue().forEach(e -> held.add(e.id()));
      }
    }
    return held;
  }

  private static boolean stillNeeded(
      List<PackEntry> entries, Reachability reach, Set<Id> heldElsewhere) {
    for (PackEntry e : entries) {
      if (reach.reaches(e.id()) && !heldElsewhere.contains(e.id())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Copies the live chunks of {@code rewrite} into new packs, except those a pack that stays holds
   * already (a run killed after copying, before its record marked the originals, left such copies:
   * they are used rather than copied again). A pack whose live chunks cannot all be read is left as
   * it is — not rewritten, not marked — with a line in {@code heldBack}: damage in one pack must
   * not stop the run.
   *
   * @return the packs left as they are
   */
  private List<String> copyLiveChunks(
      Index index, List<String> rewrite, Set<Id> staying, Reachability reach, List<String> heldBack)
      throws IOException {
    List<String> failed = new ArrayList<>();
    try (ChunkWriter writer = repo.newWriter(2)) {
      for (String pack : rewrite) {
        List<PackEntry> live = new ArrayList<>();
        for (PackEntry e : index.packs().get(pack)) {
          if (reach.reaches(e.id()) && staying.add(e.id())) {
            live.add(e);
          }
        }
        byte[] bytes;
        try {
          bytes = store.read(pack);
        } catch (IOException e) {
          bytes = null; // ChunkCopy looks for the chunks in older versions of the pack
        }
        List<PackEntry> lost = ChunkCopy.copy(repo, writer, pack, bytes, live);
        if (!lost.isEmpty()) {
          lost.forEach(e -> staying.remove(e.id()));
          failed.add(pack);
          heldBack.add(
              pack
                  + " is not rewritten or marked: chunk "
                  + lost.get(0).id().shortHex()
                  + " cannot be read (run stele repair)");
        }
      }
      writer.flush();
    }
    return failed;
  }

  private List<String> extendRetention(
      Index index,
      Reachability reach,
      List<SnapshotCatalog.Entry> live,
      List<String> deleted,
      List<String> marked)
      throws IOException {
    Set<String> going = new HashSet<>(marked);
    going.addAll(index.markedPacks());
    Map<String, Instant> needed =
        RetentionNeeds.compute(repo, index, reach, live, Set.copyOf(deleted), going);
    Retention.Mode mode = repo.format().retentionMode();
    List<String> extended = new ArrayList<>();
    for (RetentionAudit.Shortfall s : RetentionNeeds.shortfalls(repo, needed)) {
      store.extendRetention(s.blob(), mode, s.needed().plus(EXTENSION_SLACK));
      extended.add(s.blob());
    }
    return extended;
  }

  private boolean isRemovedKey(String target) {
    return target.startsWith("keys/") && !target.equals(repo.keyName());
  }

  private boolean exists(String name) throws IOException {
    try {
      store.stat(name);
      return true;
    } catch (BlobNotFoundException e) {
      return false;
    }
  }

  /** Deletions of one run, each either done or deferred. */
  private final class Run {
    final boolean dryRun;
    final List<String> deleted = new ArrayList<>();
    final List<String> deferred = new ArrayList<>();

    Run(boolean dryRun) {
      this.dryRun = dryRun;
    }

    /**
     * True if {@code name} is still retained, recording it as deferred: it must not be deleted now.
     * Never send a delete for a blob still retained, even though the store would refuse it: on a
     * versioned S3 bucket a delete without a version id is not refused, it adds a delete marker
     * that hides the blob (write-once.md: no delete is attempted on a retained blob).
     */
    boolean deferred(String name) throws IOException {
      if (dryRun) {
        return false;
      }
      try {
        if (store.retention(name).retainedAt(repo.clock().instant())) {
          deferred.add(name);
          return true;
        }
        return false;
      } catch (BlobNotFoundException e) {
        return false;
      }
    }

    /** Deletes {@code name}, whose retention {@link #deferred} checked; true if it is gone now. */
    boolean deleteUnretained(String name) throws IOException {
      if (dryRun) {
        deleted.add(name);
        return true;
      }
      try {
        store.delete(name);
        deleted.add(name);
        return true;
      } catch (BlobNotFoundException e) {
        return true;
      } catch (BlobRetainedException e) {
        deferred.add(name);
        return false;
      }
    }

    /** Deletes {@code name} unless it is retained; true if it is gone now. */
    boolean delete(String name) throws IOException {
      return !deferred(name) && deleteUnretained(name);
    }

    /** Deletes {@code name} if it exists; true if it was deleted by this call. */
    boolean deleteIfPresent(String name) throws IOException {
      if (!exists(name)) {
        return false;
      }
      return delete(name);
    }
  }
}
