package dev.stele.repo;

import dev.stele.blob.StorageRefusedException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores new chunks: seals them, gathers them into packs of about the repository's pack size (data
 * and trees in separate packs, so that reading trees touches few packs), uploads full packs in the
 * background, and writes index blobs naming the packs it uploaded: one whenever the packs not yet
 * named hold {@link #INDEX_ENTRIES} chunks, and one for the rest on {@link #flush}. Until a pack's
 * index blob exists, nothing in it is visible to anyone else; a crash leaves unreferenced packs
 * (some indexed) for maintenance to collect, as a snapshot that was never written would.
 *
 * <p>What it holds per new chunk until the chunk's index blob is written (its id among the claimed
 * ones, its pack entry: about 140 bytes) is so bounded by {@link #INDEX_ENTRIES}, not by the size
 * of a first backup; after that the repository's {@link Index} holds the chunk in 56 bytes.
 *
 * <p>Concurrency: {@link #claim} and {@link #put} may be called by any number of threads (sealing
 * runs in the caller's thread). {@link #flush} and {@link #close} must not race with {@code put}.
 * Uploads run on threads this writer owns; {@link #close} stops them.
 */
public final class ChunkWriter implements Closeable {
  /**
   * Chunks after which the uploaded packs get an index blob before {@link #flush}: about 7 MiB of
   * records, and an index blob of about 2 MiB (restic writes its index files at 50,000 entries
   * too).
   */
  static final int INDEX_ENTRIES = 50_000;

  private static final Logger LOG = LoggerFactory.getLogger(ChunkWriter.class);

  private final Repository repo;
  private final ChunkCodec codec;
  private final int packSize;
  private final Set<Id> claimed = ConcurrentHashMap.newKeySet();
  private final ExecutorService uploads;
  private final Semaphore uploadSlots;
  private final List<Future<?>> pending = new ArrayList<>();
  private final int indexEntries;

  /** Uploaded packs no index blob write has been attempted for, and their entries; under itself. */
  private final Map<String, List<PackEntry>> written = new LinkedHashMap<>();

  private int writtenEntries;

  /** Packs whose upload began and that no index blob write has yet been attempted for. */
  private final Set<String> unindexed = new LinkedHashSet<>();

  private final AtomicReference<IOException> failure = new AtomicReference<>();
  private final AtomicLong bytesStored = new AtomicLong();
  private final AtomicLong chunksStored = new AtomicLong();
  private final AtomicLong bytesNew = new AtomicLong();
  private final Pack.Builder[] current = new Pack.Builder[ChunkType.values().length];
  private final java.time.Instant retainUntil;
  private final Set<String> reusedPacks = ConcurrentHashMap.newKeySet();
  private @Nullable Path spoolDirectory;

  /** Packs handed to an upload that has not ended: their spool files, should none run. */
  private final Map<String, Pack.Builder> queued = new ConcurrentHashMap<>();

  ChunkWriter(
      Repository repo,
      ChunkCodec codec,
      int packSize,
      int parallelUploads,
      java.time.Instant retainUntil,
      Path spoolDirectory,
      int indexEntries) {
    this.repo = repo;
    this.indexEntries = indexEntries;
    this.spoolDirectory = spoolDirectory;
    this.retainUntil = retainUntil;
    this.codec = codec;
    this.packSize = packSize;
    this.uploadSlots = new Semaphore(parallelUploads);
    AtomicInteger n = new AtomicInteger();
    this.uploads =
        Executors.newFixedThreadPool(
            parallelUploads,
            r -> {
              Thread t = new Thread(r, "stele-pack-upload-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Returns true if the caller must {@link #put} {@code id}: the repository has no live copy and no
   * other caller of this writer claimed it first.
   */
  public boolean claim(Id id) {
    String pack = repo.index().livePack(id);
    if (pack != null) {
      reusedPacks.add(pack);
      return false;
    }
    return claimed.add(id);
  }

  /**
   * Records that the caller reuses {@code ids} without claiming them (a file unchanged since the
   * parent snapshot), so that {@link #reusedPacks} names their packs. Returns false, recording
   * nothing, if one of them has no live copy (lost to damage, or only in a pack marked for
   * deletion): then the caller must read the file again, which stores the chunk anew and heals
   * every snapshot that names it.
   */
  public boolean reuse(List<Id> ids) {
    Index index = repo.index();
    String[] packs = new String[ids.size()];
    for (int i = 0; i < packs.length; i++) {
      packs[i] = index.livePack(ids.get(i));
      if (packs[i] == null) {
        return false;
      }
    }
    reusedPacks.addAll(Arrays.asList(packs));
    return true;
  }

  /**
   * Packs written before this writer that hold chunks its callers reused: a snapshot that names
   * those chunks needs these packs retained as long as it is, and its writer extends them before
   * the manifest exists (write-once.md, "Retention follows the data's need").
   */
  public Set<String> reusedPacks() {
    return Set.copyOf(reusedPacks);
  }

  /** Seals and stores a chunk the caller claimed. */
  public void put(Id id, ChunkType type, byte[] data, int off, int len) throws IOException {
    rethrow();
    ChunkCodec.Sealed sealed = codec.sealReused(id, type, data, off, len);
    chunksStored.incrementAndGet();
    bytesNew.addAndGet(len);
    bytesStored.addAndGet(sealed.length());
    append(new PackEntry(id, type, 0, sealed.length(), len), sealed.bytes());
  }

  /**
   * Stores a chunk already sealed, as read from another pack: maintenance uses it to copy live
   * chunks out of a pack it will delete, without decrypting them.
   */
  public void copy(PackEntry entry, byte[] sealed) throws IOException {
    rethrow();
    append(entry, sealed);
  }

  /** Adds {@code sealed[0, entry.length())} to the current pack of its type. */
  @SuppressWarnings("EnumOrdinal") // a slot per type in this process's array, never stored
  private void append(PackEntry entry, byte[] sealed) throws IOException {
    Pack.Builder full = null;
    synchronized (this) {
      int slot = entry.type().ordinal();
      if (current[slot] == null) {
        current[slot] = newPack();
      }
      try {
        current[slot].add(entry, sealed);
      } catch (IOException e) {
        throw current[slot].refusal(repo.store(), e);
      }
      if (current[slot].size() >= packSize) {
        full = current[slot];
        current[slot] = null;
      }
    }
    if (full != null) {
      upload(full);
    }
  }

  /**
   * A pack in a spool file, or in memory once no spool file could be made: a backup in a read-only
   * container without a temporary directory still runs, as it did before spool files.
   */
  private Pack.Builder newPack() throws IOException {
    if (spoolDirectory != null) {
      try {
        return Pack.Builder.spooled(spoolDirectory);
      } catch (IOException e) {
        LOG.debug(
            "packs are built in memory: no spool file in {}: {}", spoolDirectory, e.toString());
        spoolDirectory = null;
      }
    }
    return Pack.Builder.inMemory();
  }

  /** Convenience: claims and stores {@code data} if new; returns its id either way. */
  public Id store(ChunkType type, byte[] data) throws IOException {
    Id id = repo.chunkId(data, 0, data.length);
    if (claim(id)) {
      put(id, type, data, 0, data.length);
    }
    return id;
  }

  /**
   * Uploads the last pack, waits for every upload, then writes the index blob naming them and adds
   * them to the repository's index. After it returns, every chunk put so far is durable and
   * findable.
   */
  public void flush() throws IOException {
    List<Pack.Builder> last = new ArrayList<>();
    synchronized (this) {
      for (int slot = 0; slot < current.length; slot++) {
        if (current[slot] != null && !current[slot].isEmpty()) {
          last.add(current[slot]);
        }
        current[slot] = null;
      }
    }
    for (Pack.Builder pack : last) {
      upload(pack);
    }
    List<Future<?>> waiting;
    synchronized (pending) {
      waiting = new ArrayList<>(pending);
      pending.clear();
    }
    for (Future<?> f : waiting) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while uploading packs");
      } catch (java.util.concurrent.ExecutionException e) {
        // recorded in failure by the task
      }
    }
    rethrow();
    Map<String, List<PackEntry>> packs;
    synchronized (written) {
      packs = takeWritten();
    }
    if (!packs.isEmpty()) {
      repo.writeIndex(List.of(), packs, retainUntil);
    }
    claimed.clear();
  }

  /**
   * Records an uploaded pack; once the packs recorded hold {@link #indexEntries} chunks, writes
   * their index blob and forgets their chunks' claims: the repository's index answers for them now.
   */
  private void indexWhenDue(Pack.Builder pack) throws IOException {
    Map<String, List<PackEntry>> due;
    synchronized (written) {
      List<PackEntry> entries = List.copyOf(pack.entries());
      written.put(pack.name(), entries);
      writtenEntries += entries.size();
      if (writtenEntries < indexEntries) {
        return;
      }
      due = takeWritten();
    }
    // Into the repository's index first, then unclaimed: a claim between the two finds them there.
    repo.writeIndex(List.of(), due, retainUntil);
    due.values().forEach(entries -> entries.forEach(e -> claimed.remove(e.id())));
  }

  /** The recorded packs, which are no longer {@link #unindexed}: their index write is attempted. */
  private Map<String, List<PackEntry>> takeWritten() {
    Map<String, List<PackEntry>> packs = new LinkedHashMap<>(written);
    written.clear();
    unindexed.removeAll(packs.keySet());
    writtenEntries = 0;
    return packs;
  }

  public long chunksStored() {
    return chunksStored.get();
  }

  public long bytesNew() {
    return bytesNew.get();
  }

  public long bytesStored() {
    return bytesStored.get();
  }

  private void upload(Pack.Builder pack) throws IOException {
    try {
      uploadSlots.acquire();
    } catch (InterruptedException e) {
      pack.discard();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to upload a pack");
    }
    synchronized (written) {
      unindexed.add(pack.name());
    }
    queued.put(pack.name(), pack);
    Future<?> f =
        uploads.submit(
            () -> {
              try {
                repo.writePack(pack, retainUntil);
                indexWhenDue(pack);
              } catch (IOException | RuntimeException e) {
                IOException io = e instanceof IOException x ? x : new IOException(e);
                failure.compareAndSet(null, io);
              } finally {
                queued.remove(pack.name());
                uploadSlots.release();
              }
            });
    synchronized (pending) {
      pending.add(f);
    }
  }

  private void rethrow() throws IOException {
    IOException e = failure.get();
    if (e != null) {
      throw e;
    }
  }

  /**
   * Stops the uploads. Packs whose upload this writer began but never passed to an index blob write
   * (the caller failed before {@link #flush}) are named in an {@link MaintenanceRecord#ABANDONED}
   * record, so that maintenance may delete them at once instead of after its two windows
   * (docs/design.md, "A failed backup's packs"). Uploads still in flight are named too: no index
   * will ever name them either. Packs whose index blob write was attempted are never named, even if
   * that write failed: it may have landed, and others may use them.
   */
  @Override
  public void close() {
    uploads.shutdownNow();
    queued.values().forEach(Pack.Builder::discard);
    synchronized (this) {
      for (int slot = 0; slot < current.length; slot++) {
        if (current[slot] != null) {
          current[slot].discard();
          current[slot] = null;
        }
      }
    }
    List<String> abandoned;
    synchronized (written) {
      abandoned = new ArrayList<>(unindexed);
      unindexed.clear();
      written.clear();
    }
    if (abandoned.isEmpty()) {
      return;
    }
    try {
      repo.writeBlob(
          BlobKind.MAINTENANCE,
          MaintenanceRecord.abandoned(repo.clock().instant(), abandoned).toJson());
    } catch (StorageRefusedException e) {
      // The storage refuses writes as a whole (full, read-only): the failure that brought us here
      // already says so in one line, and the packs are collected after the windows.
      LOG.debug("abandoned packs not recorded: {}", e.getMessage());
    } catch (IOException | RuntimeException e) {
      repo.warn(
          "could not record "
              + abandoned.size()
              + " packs of a failed write as abandoned ("
              + e.getMessage()
              + "); maintenance collects them after its windows");
    }
  }
}
