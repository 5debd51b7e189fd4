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
import dev.stele.repo.Json;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
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
 *   <li><b>Sweep.</b> Packs marked by a run at least {@code sweepWindow} ago are deleted if they
 *       still hold nothing a live snapshot needs (or every such chunk has a copy in a pack that
 *       stays); index blobs superseded that long ago likewise; forgotten snapshots' manifests, and
 *       tombstones whose target is gone. A delete the store refuses because of retention is
 *       recorded as deferred and tried again by a later run.
 *   <li><b>Rewrite.</b> Packs at least {@code markWindow} old whose dead bytes exceed a quarter
 *       have their live chunks copied, still sealed, into new packs; the old pack is then marked.
 *   <li><b>Compact.</b> One new index blob lists every pack that remains and supersedes the index
 *       blobs loaded at the start.
 *   <li><b>Mark.</b> Packs at least {@code markWindow} old that hold no live chunk, or that no
 *       index names (left by a crashed writer, unless their footer names a chunk snapshots need
 *       that no index has), are marked. Writers do not deduplicate against marked packs, so nothing
 *       new comes to depend on them.
 *   <li><b>Extend.</b> With a retention mode, live packs, snapshot manifests, key and format blobs
 *       whose retention falls short of the latest expiry of the snapshots that use them are
 *       extended (with a week of slack, so extensions are not needed every run).
 * </ol>
 *
 * The run ends by writing one maintenance record saying what it did.
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

  /** What a run did (or, dry, would do). */
  public record Result(
      MaintenanceRecord record,
      boolean dryRun,
      int packsMarked,
      int deleted,
      int deferred,
      int extended,
      int packsRewritten,
      long bytesFreed) {}

  public Result run(boolean dryRun) throws IOException {
    RepositoryFormat format = repo.format();
    Instant now = repo.clock().instant();
    // Snapshots before the index: a writer writes its index blob before its manifest, so every
    // manifest listed here has its chunks in the index loaded next. The other order fails the run
    // whenever a backup finishes between the two reads.
    Map<String, List<Id>> tombstones = repo.tombstones();
    List<SnapshotCatalog.Entry> live = liveSnapshots(tombstones.keySet());
    repo.reloadIndex();
    Index index = repo.loadIndex();
    // Strict: a record from a newer Stele stops the run before anything is deleted.
    Map<Id, MaintenanceRecord> records = repo.maintenanceRecords(true);
    Reachability reach = Reachability.of(repo, live, format.minimumRetention(), true);

    Map<String, BlobInfo> packs = new HashMap<>();
    for (BlobInfo info : store.list("packs/")) {
      packs.put(info.name(), info);
    }
    Set<String> marked = new HashSet<>();
    Set<String> sweepable = new TreeSet<>();
    Set<String> supersededLongAgo = new TreeSet<>();
    Instant sweepBefore = now.minus(format.sweepWindow());
    for (MaintenanceRecord r : records.values()) {
      marked.addAll(r.markedPacks());
      if (!r.time().isAfter(sweepBefore)) {
        sweepable.addAll(r.markedPacks());
        supersededLongAgo.addAll(r.supersededIndexes());
      }
    }
    sweepable.retainAll(packs.keySet());

    Run run = new Run(dryRun);
    // 1. Sweep.
    Set<String> copiedElsewhere = chunksCopiedOutside(index, sweepable);
    long bytesFreed = 0;
    for (String pack : sweepable) {
      if (!stillNeeded(index.packs().get(pack), reach, copiedElsewhere)
          && !holdsLostChunks(packs.get(pack), index, reach)
          && run.delete(pack)) {
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

    // 2. Rewrite packs that are mostly dead.
    Instant markBefore = now.minus(format.markWindow());
    List<String> rewritten = new ArrayList<>();
    List<String> toMark = new ArrayList<>();
    ChunkWriter writer = dryRun ? null : repo.newWriter(2);
    try {
      for (BlobInfo info : packs.values()) {
        String pack = info.name();
        if (marked.contains(pack)
            || run.deleted.contains(pack)
            || info.created().isAfter(markBefore)) {
          continue;
        }
        List<PackEntry> entries = index.packs().get(pack);
        if (entries == null) {
          if (!holdsLostChunks(info, index, reach)) {
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
          if (!dryRun) {
            copyLiveChunks(writer, pack, entries, reach);
          }
          rewritten.add(pack);
          toMark.add(pack);
        }
      }
      if (writer != null) {
        writer.flush();
      }
    } finally {
      if (writer != null) {
        writer.close();
      }
    }

    // 3. Compact the index.
    List<String> superseded = new ArrayList<>();
    if (!dryRun && (!run.deleted.isEmpty() || !rewritten.isEmpty() || index.blobs().size() > 1)) {
      Map<String, List<PackEntry>> remaining = new HashMap<>(repo.index().packs());
      remaining.keySet().removeAll(run.deleted);
      repo.writeIndex(index.blobs(), remaining);
      index.blobs().forEach(id -> superseded.add(BlobKind.INDEX.nameOf(id)));
    }

    // 4. Extend retention.
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
            rewritten);
    if (!dryRun) {
      repo.writeBlob(BlobKind.MAINTENANCE, Json.write(record));
    }
    return new Result(
        record,
        dryRun,
        toMark.size(),
        run.deleted.size(),
        run.deferred.size(),
        extended.size(),
        rewritten.size(),
        bytesFreed);
  }

  private List<SnapshotCatalog.Entry> liveSnapshots(Set<String> forgotten) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    List<SnapshotCatalog.Entry> live = new ArrayList<>();
    for (Id id : repo.list(BlobKind.SNAPSHOT)) {
      if (forgotten.contains(BlobKind.SNAPSHOT.nameOf(id))) {
        continue;
      }
      try {
        live.add(new SnapshotCatalog.Entry(id, catalog.read(id)));
      } catch (BlobNotFoundException e) {
        // forgotten and removed by a concurrent run
      } catch (IOException e) {
        throw new IOException(
            "maintenance stopped, nothing deleted: " + e.getMessage() + " (run verify)", e);
      }
    }
    return live;
  }

  /** Chunks of {@code packs} that also lie in some pack outside them. */
  private static Set<String> chunksCopiedOutside(Index index, Set<String> packs) {
    Set<Id> inside = new HashSet<>();
    for (String pack : packs) {
      List<PackEntry> entries = index.packs().get(pack);
      if (entries != null) {
        entries.forEach(e -> inside.add(e.id()));
      }
    }
    Set<String> copied = new HashSet<>();
    for (var p : index.packs().entrySet()) {
      if (!packs.contains(p.getKey())) {
        for (PackEntry e : p.getValue()) {
          if (inside.contains(e.id())) {
            copied.add(e.id().hex());
          }
        }
      }
    }
    return copied;
  }

  private static boolean stillNeeded(
      List<PackEntry> entries, Reachability reach, Set<String> copiedElsewhere) {
    if (entries == null) {
      return false;
    }
    for (PackEntry e : entries) {
      if (reach.reaches(e.id()) && !copiedElsewhere.contains(e.id().hex())) {
        return true;
      }
    }
    return false;
  }

  /**
   * True if {@code info}, a pack no index names, holds by its footer a chunk that a live snapshot
   * needs and no index has: its index blob was lost, not a crashed writer's orphan, and {@code
   * stele repair} takes it back. Such a pack is neither marked nor swept.
   */
  private boolean holdsLostChunks(BlobInfo info, Index index, Reachability reach)
      throws IOException {
    if (index.packs().containsKey(info.name())) {
      return false;
    }
    try {
      for (PackEntry e : repo.readPackFooter(info.name(), info.size())) {
        if (reach.reaches(e.id()) && index.find(e.id()) == null) {
          return true;
        }
      }
    } catch (dev.stele.repo.CorruptBlobException | BlobNotFoundException e) {
      // no footer to read: nothing in it can be taken back
    }
    return false;
  }

  private void copyLiveChunks(
      ChunkWriter writer, String pack, List<PackEntry> entries, Reachability reach)
      throws IOException {
    List<PackEntry> live = entries.stream().filter(e -> reach.reaches(e.id())).toList();
    List<PackEntry> lost = ChunkCopy.copy(repo, writer, pack, store.read(pack), live);
    if (!lost.isEmpty()) {
      throw new dev.stele.repo.CorruptBlobException(
          pack, "chunk " + lost.get(0).id().shortHex() + " is damaged (run stele repair)");
    }
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
    for (RetentionNeeds.Shortfall s : RetentionNeeds.shortfalls(repo, needed)) {
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

    /** Deletes {@code name}; true if it is gone now. */
    boolean delete(String name) throws IOException {
      if (dryRun) {
        deleted.add(name);
        return true;
      }
      try {
        // Never send a delete for a blob still retained, even though the store would refuse it:
        // on a versioned S3 bucket a delete without a version id is not refused, it adds a delete
        // marker that hides the blob (write-once.md: no delete is attempted on a retained blob).
        if (store.retention(name).retainedAt(repo.clock().instant())) {
          deferred.add(name);
          return false;
        }
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

    /** Deletes {@code name} if it exists; true if it was deleted by this call. */
    boolean deleteIfPresent(String name) throws IOException {
      if (!exists(name)) {
        return false;
      }
      return delete(name);
    }
  }
}
