package dev.stele.repo;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.chunk.GearTable;
import dev.stele.crypto.KdfParams;
import dev.stele.crypto.MasterKey;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * An open repository: its format, its master key, and the index of its chunks. Every blob it writes
 * gets a new name and the repository's retention; nothing here deletes (that is maintenance's job,
 * through {@link #store()}).
 *
 * <p>Concurrency: safe for use by many threads; the index is loaded once and then only grows.
 */
public final class Repository implements Closeable {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final BlobStore store;
  private final RepositoryFormat format;
  private final MasterKey key;
  private final String keyName;
  private final Clock clock;
  private final ChunkCodec codec;
  private final byte[] blobKey;

  /**
   * Guarded by itself, not by this repository, whose lock is held while the index loads: the
   * threads reading index blobs report warnings.
   */
  private final List<String> warnings = new ArrayList<>();

  private final TreePackCache treePacks = new TreePackCache();

  /**
   * Tombstones read so far, by id: named by their content and never rewritten, so each is read once
   * per open repository and {@link #tombstones} costs one listing after the first call.
   */
  private final Map<Id, Tombstone> tombstonesRead;

  /** Snapshot manifests read so far, by id: like tombstones, never rewritten. */
  private final Map<Id, SnapshotManifest> manifestsRead;

  /** Pack footers read so far, by pack name: packs are never rewritten. */
  private final Map<String, List<PackEntry>> footers = new ConcurrentHashMap<>();

  private final VersionedReads reads;

  /** What {@link #close} does instead of closing the store, for a {@link #session}; else null. */
  private final Runnable onClose;

  private volatile java.util.function.Consumer<String> warningListener;
  private volatile Index index;

  Repository(BlobStore store, RepositoryFormat format, MasterKey key, String keyName, Clock clock) {
    this(
        store,
        format,
        key,
        keyName,
        clock,
        new ConcurrentHashMap<>(),
        new ConcurrentHashMap<>(),
        null);
  }

  private Repository(
      BlobStore store,
      RepositoryFormat format,
      MasterKey key,
      String keyName,
      Clock clock,
      Map<Id, Tombstone> tombstonesRead,
      Map<Id, SnapshotManifest> manifestsRead,
      Runnable onClose) {
    this.store = store;
    this.format = format;
    this.key = key;
    this.keyName = keyName;
    this.clock = clock;
    this.codec = new ChunkCodec(key, format.compressionLevel());
    this.blobKey = key.blobKey();
    this.reads = new VersionedReads(store, this::warn);
    this.tombstonesRead = tombstonesRead;
    this.manifestsRead = manifestsRead;
    this.onClose = onClose;
  }

  /**
   * A view of this open repository for one unit of work (a backup, a reconcile pass), so that a
   * long-lived process derives the key once yet loads the index afresh for each backup, as
   * maintenance's windows require (docs/design.md): the same store, format and key, and nothing
   * read yet — no index, no footers, and of the warnings only those opening found; only the
   * tombstones and {@link #manifestsRead manifests} read so far are shared, as they are never
   * rewritten. Costs no request. Closing the session runs {@code onClose} and leaves the store
   * open; closing this repository closes it for every session.
   */
  public Repository session(Runnable onClose) {
    Repository session =
        new Repository(store, format, key, keyName, clock, tombstonesRead, manifestsRead, onClose);
    session.warnings.addAll(warnings()); // what opening found, as a fresh open would report it
    return session;
  }

  /**
   * The snapshot manifests a caller read and chose to keep, by id, shared by this repository and
   * its sessions: a manifest is named by its content's hash and never rewritten, so a kept copy is
   * never stale. The caller bounds it.
   */
  public Map<Id, SnapshotManifest> manifestsRead() {
    return manifestsRead;
  }

  /**
   * How many times this process has loaded an index (every index blob and maintenance record read),
   * for the operator's metrics.
   */
  public static long indexLoads() {
    return IndexLoader.loads();
  }

  /** Creates a repository in an empty location. See {@link RepositoryInit}. */
  public static Repository init(BlobStore store, char[] password, RepositoryInit options)
      throws IOException {
    return options.create(store, password);
  }

  /** Opens the repository at {@code store} with {@code password}. */
  public static Repository open(BlobStore store, char[] password, Clock clock) throws IOException {
    return RepositoryOpener.open(store, password, clock);
  }

  /**
   * Loads and initialises, on the calling thread and on throwaway data, what {@link #open} uses
   * first (JSON, the key derivation's library, libcrypto, zstd): a tenth of a second in a fresh
   * JVM, which a command line spends on a second thread while it parses its arguments. Never fails.
   *
   * <p>Concurrency: a thread that runs this must not race the thread that opens: a class whose
   * initialisation both enter from different ends deadlocks. Run it before the open, and join it.
   */
  public static void prepareToOpen() {
    OpenPreparation.run();
  }

  public BlobStore store() {
    return store;
  }

  public RepositoryFormat format() {
    return format;
  }

  public Clock clock() {
    return clock;
  }

  /** The key blob the password opened. */
  public String keyName() {
    return keyName;
  }

  /** Problems found while loading that did not stop the repository from opening. */
  public List<String> warnings() {
    synchronized (warnings) {
      return List.copyOf(warnings);
    }
  }

  /**
   * Sends every warning from now on to {@code listener} (the command line prints them) instead of
   * the log. Warnings are still collected in {@link #warnings()}.
   */
  public void onWarning(java.util.function.Consumer<String> listener) {
    this.warningListener = listener;
  }

  void warn(String warning) {
    synchronized (warnings) {
      warnings.add(warning);
    }
    tell(warning);
  }

  /**
   * Reports {@code warning} unless this repository object already reported the same text: a problem
   * that every listing meets (a damaged manifest) is named once per command, not once per listing.
   */
  public void warnOnce(String warning) {
    synchronized (warnings) {
      if (warnings.contains(warning)) {
        return;
      }
      warnings.add(warning);
    }
    tell(warning);
  }

  private void tell(String warning) {
    var listener = warningListener;
    if (listener != null) {
      listener.accept(warning);
    } else {
      // looked up here, not in a static field: the first look-up starts the logging system, which
      // a command that never warns should not pay for at start
      LoggerFactory.getLogger(Repository.class).warn(warning);
    }
  }

  /** The gear table of this repository's chunker. */
  public GearTable gearTable() {
    return GearTable.fromKey(key.gearKey());
  }

  /** The id of a chunk with this plaintext. */
  public Id chunkId(byte[] data, int off, int len) {
    return Id.of(key.chunkId(data, off, len));
  }

  /** The index, loaded on first use. */
  public Index index() {
    Index i = index;
    if (i == null) {
      synchronized (this) {
        if (index == null) {
          try {
            index = IndexLoader.load(this);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        i = index;
      }
    }
    return i;
  }

  /** Loads the index now, so that errors surface as {@link IOException}. */
  public Index loadIndex() throws IOException {
    try {
      return index();
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Drops the loaded index so the next use reloads it from storage. */
  public synchronized void reloadIndex() {
    index = null;
  }

  /** A writer for new chunks; {@code parallelUploads} packs may be in flight at once. */
  public ChunkWriter newWriter(int parallelUploads) {
    return newWriter(parallelUploads, null);
  }

  /**
   * A writer whose packs and index blob are retained at least until {@code atLeastUntil} (null: the
   * repository's minimum from their creation).
   */
  public ChunkWriter newWriter(int parallelUploads, Instant atLeastUntil) {
    return newWriter(parallelUploads, atLeastUntil, spoolDirectory());
  }

  /** As {@link #newWriter(int, Instant)}, building packs in {@code spoolDirectory}. */
  ChunkWriter newWriter(int parallelUploads, Instant atLeastUntil, Path spoolDirectory) {
    return newWriter(parallelUploads, atLeastUntil, spoolDirectory, ChunkWriter.INDEX_ENTRIES);
  }

  /** As {@link #newWriter(int, Instant, Path)}, with an index blob every {@code indexEntries}. */
  ChunkWriter newWriter(
      int parallelUploads, Instant atLeastUntil, Path spoolDirectory, int indexEntries) {
    return new ChunkWriter(
        this,
        codec,
        format.packSize(),
        parallelUploads,
        atLeastUntil,
        spoolDirectory,
        indexEntries);
  }

  /**
   * Where packs are built before they are stored: where the store takes them over without a copy (a
   * local repository's own temporary directory), else {@code $TMPDIR} if set (as restic and borg
   * use it), else the JVM's temporary directory.
   */
  private Path spoolDirectory() {
    Path own = store.spoolDirectory();
    if (own != null) {
      return own;
    }
    String tmpdir = System.getenv("TMPDIR");
    return Path.of(
        tmpdir != null && !tmpdir.isBlank() ? tmpdir : System.getProperty("java.io.tmpdir"));
  }

  /**
   * Reads one chunk.
   *
   * @throws BlobNotFoundException if no index names it
   * @throws CorruptBlobException if it fails authentication
   */
  public byte[] readChunk(Id id) throws IOException {
    Location location = locate(id);
    if (location == null) {
      throw new BlobNotFoundException("chunk " + id.hex() + " (in no index)");
    }
    PackEntry e = location.entry();
    String pack = location.pack();
    try {
      if (e.type() == ChunkType.TREE) {
        TreePackCache.Sealed sealed = treePacks.read(store, pack, e);
        return codec.open(pack, e, sealed.buffer(), sealed.offset());
      }
      return codec.open(pack, e, store.read(pack, e.offset(), e.length()), 0);
    } catch (IOException failure) {
      return recoverChunk(pack, e, failure);
    }
  }

  /**
   * Where chunk {@code id} can be read, or null. A chunk that no index names is looked for in the
   * footers of packs that no index names and no maintenance record marks (read once per loaded
   * index, on the first such miss): a missing or damaged index blob costs time, not data. The pack
   * found is added to the loaded index with a warning naming it, so maintenance's compacted index
   * names it again.
   */
  public Location locate(Id id) throws IOException {
    Index loaded = loadIndex();
    Location location = loaded.find(id);
    return location != null ? location : FooterRecovery.of(this, loaded).recover(id);
  }

  /**
   * After {@code failure} reading the chunk {@code entry} of {@code pack} at its current version,
   * reads it from the newest older version of the pack in which it verifies (on a store that keeps
   * versions), with a warning naming the pack and version; otherwise rethrows {@code failure}.
   */
  public byte[] recoverChunk(String pack, PackEntry entry, IOException failure) throws IOException {
    return reads.fallback(
        pack, failure, entry.offset(), entry.length(), b -> codec.open(pack, entry, b, 0));
  }

  /**
   * Opens a chunk from a buffer read from its pack at {@code off}, into a buffer the calling thread
   * reuses: the chunk is {@code [0, entry.rawLength())} of what it returns, until the thread opens
   * or checks another chunk. A restore writes each chunk out at once, so it allocates nothing per
   * chunk.
   */
  public byte[] openChunk(String pack, PackEntry entry, byte[] buf, int off) throws IOException {
    return codec.openReused(pack, entry, buf, off);
  }

  /**
   * Checks a chunk as {@link #openChunk} opens it, keeping nothing; decrypts where it lies, so the
   * chunk's bytes in {@code buf} are gone afterwards.
   */
  void checkChunk(String pack, PackEntry entry, byte[] buf, int off) throws IOException {
    codec.check(pack, entry, buf, off);
  }

  /** Writes a standalone blob of {@code kind}; returns its id (the SHA-256 of its bytes). */
  public Id writeBlob(BlobKind kind, byte[] payload) throws IOException {
    byte[] sealed = Envelope.seal(blobKey, kind, payload, format.compressionLevel());
    Id id = Sha256.of(sealed);
    store.create(kind.nameOf(id), sealed, newRetention());
    return id;
  }

  /**
   * Writes a standalone blob retained at least until {@code atLeastUntil} (null: the minimum), so
   * that a snapshot's blobs exist only ever with the retention the snapshot needs.
   */
  public Id writeBlob(BlobKind kind, byte[] payload, Instant atLeastUntil) throws IOException {
    byte[] sealed = Envelope.seal(blobKey, kind, payload, format.compressionLevel());
    Id id = Sha256.of(sealed);
    store.create(kind.nameOf(id), sealed, retentionUntil(atLeastUntil));
    return id;
  }

  /** Reads and verifies a standalone blob; returns its payload. */
  public byte[] readBlob(BlobKind kind, Id id) throws IOException {
    String name = kind.nameOf(id);
    return reads.read(name, bytes -> Envelope.open(blobKey, kind, name, bytes));
  }

  /** Turns the verified payload of a standalone blob into a value. */
  @FunctionalInterface
  public interface BlobParser<T> {
    T parse(Id id, byte[] payload) throws IOException;
  }

  /** What reading one blob of many gave: its value, or the problem that stopped it. */
  public record Read<T>(Id id, @Nullable T value, @Nullable IOException problem) {}

  /**
   * Reads and verifies every blob of {@code kind} that {@code ids} names, a few at a time ({@link
   * ParallelReads}), and parses each; the outcomes come in the order of {@code ids}, and an {@link
   * IOException} (a missing or damaged blob) costs only its own.
   */
  public <T> List<Read<T>> readBlobs(BlobKind kind, List<Id> ids, BlobParser<T> parse)
      throws IOException {
    return ParallelReads.read(this, kind, ids, parse);
  }

  /** Ids of every blob of {@code kind}, sorted. */
  public List<Id> list(BlobKind kind) throws IOException {
    List<Id> ids = new ArrayList<>();
    for (BlobInfo info : store.list(kind.prefix())) {
      Id id = kind.idOf(info.name());
      if (id != null) {
        ids.add(id);
      }
    }
    return ids;
  }

  byte[] blobKey() {
    return blobKey;
  }

  /**
   * The key that authenticates what a client keeps about this repository on its own disk (such as
   * the S3 store's retention file), so that a cache someone else wrote is not believed.
   */
  public byte[] localCacheKey() {
    return key.localCacheKey();
  }

  /** The retention a blob created now gets. */
  Retention newRetention() {
    return format.retentionFor(clock.instant());
  }

  /**
   * The retention a blob created now gets when it must last at least until {@code atLeastUntil}:
   * the later of that and now plus the minimum, in the repository's mode; none without a mode.
   */
  Retention retentionUntil(Instant atLeastUntil) {
    Retention minimum = newRetention();
    if (minimum.isNone() || atLeastUntil == null || !atLeastUntil.isAfter(minimum.until())) {
      return minimum;
    }
    return Retention.of(minimum.mode(), atLeastUntil);
  }

  void writePack(Pack.Builder pack, Instant atLeastUntil) throws IOException {
    try {
      try {
        pack.finish(blobKey);
      } catch (IOException e) {
        throw pack.refusal(store, e);
      }
      pack.storeIn(store, retentionUntil(atLeastUntil));
    } finally {
      pack.discard();
    }
  }

  /**
   * How far beyond what is needed an extension of retention goes, so that a blob kept by daily
   * snapshots is extended about once a week rather than on every backup and maintenance run.
   */
  public static final java.time.Duration EXTENSION_SLACK = java.time.Duration.ofDays(7);

  /**
   * Makes sure {@code name} is retained at least until {@code until}: reads its retention and, if
   * it falls short, extends it to {@code until} plus {@link #EXTENSION_SLACK}. Does nothing in a
   * repository without a lock mode.
   *
   * @return true if it had to extend (one extra request)
   */
  public boolean ensureRetained(String name, Instant until) throws IOException {
    if (format.retentionMode() == Retention.Mode.NONE) {
      return false;
    }
    if (store.retention(name).lastsUntil(until)) {
      return false;
    }
    store.extendRetention(name, format.retentionMode(), until.plus(EXTENSION_SLACK));
    return true;
  }

  /**
   * The entry table of a pack from its footer (for recovery and verification); packs never change,
   * so each footer is read once per open repository.
   */
  public List<PackEntry> readPackFooter(String pack, long size) throws IOException {
    List<PackEntry> known = footers.get(pack);
    if (known == null) {
      known = readFooterNow(pack, size);
      footers.put(pack, known);
    }
    return known;
  }

  private List<PackEntry> readFooterNow(String pack, long size) throws IOException {
    return Pack.footer(pack, blobKey, size, (offset, length) -> store.read(pack, offset, length));
  }

  /** Writes an index blob naming {@code packs} and superseding {@code supersedes}. */
  public Id writeIndex(List<Id> supersedes, Map<String, List<PackEntry>> packs) throws IOException {
    return writeIndex(supersedes, packs, null);
  }

  /** Writes an index blob retained at least until {@code atLeastUntil} (null: the minimum). */
  public Id writeIndex(
      List<Id> supersedes, Map<String, List<PackEntry>> packs, Instant atLeastUntil)
      throws IOException {
    Id id = writeBlob(BlobKind.INDEX, IndexCodec.encode(supersedes, packs), atLeastUntil);
    Index loaded = index;
    if (loaded != null) {
      packs.forEach(loaded::add);
    }
    return id;
  }

  /**
   * Reads every maintenance record; unreadable ones, and ones written by a newer Stele, are
   * reported as warnings and skipped.
   */
  public Map<Id, MaintenanceRecord> maintenanceRecords() throws IOException {
    return maintenanceRecords(false);
  }

  /**
   * Reads every maintenance record; unreadable ones are reported as warnings and skipped.
   *
   * @param forDeletion true when the caller is about to delete: then a record written by a newer
   *     Stele is not skipped but stops the caller (it may restrict deletion in ways this Stele does
   *     not know)
   * @throws IOException if {@code forDeletion} and a record has a version newer than {@link
   *     MaintenanceRecord#VERSION}
   */
  public Map<Id, MaintenanceRecord> maintenanceRecords(boolean forDeletion) throws IOException {
    Map<Id, MaintenanceRecord> records = new HashMap<>();
    for (Id id : list(BlobKind.MAINTENANCE)) {
      try {
        records.put(
            id,
            MaintenanceRecord.parse(
                BlobKind.MAINTENANCE.nameOf(id), readBlob(BlobKind.MAINTENANCE, id)));
      } catch (BlobNotFoundException e) {
        // deleted by a concurrent maintenance run after listing
      } catch (UnsupportedVersionException e) {
        if (forDeletion) {
          throw new IOException(
              "maintenance stopped, nothing deleted: the repository was maintained by a newer"
                  + " Stele ("
                  + e.getMessage()
                  + "); maintain it with that version",
              e);
        }
        warn(e.getMessage());
      } catch (IOException e) {
        warn(e.getMessage());
      }
    }
    return records;
  }

  /** Adds a password; returns the new key blob's name. */
  public String addKey(char[] password, KdfParams kdf) throws IOException {
    byte[] blob =
        KeyBlob.seal(
            key, RepositoryOpener.formatHash(store), password, kdf, clock.instant(), Hosts.name());
    String name = KeyBlob.PREFIX + Sha256.of(blob).hex();
    store.create(name, blob, newRetention());
    return name;
  }

  /**
   * Removes a password by writing a tombstone for its key blob; the blob itself stays until
   * maintenance may delete it, and the password no longer opens the repository.
   *
   * @param keyName the key blob's name, {@code keys/<sha256>}
   * @param reason free text recorded in the tombstone
   * @return the tombstone's id
   * @throws IllegalArgumentException if {@code keyName} is the key this repository was opened with
   *     (removing it would lock out the caller) or not a key blob name
   * @throws BlobNotFoundException if no such key blob exists
   */
  public Id removeKey(String keyName, String reason) throws IOException {
    if (!keyName.startsWith(KeyBlob.PREFIX)) {
      throw new IllegalArgumentException(keyName + " is not a key blob name");
    }
    if (keyName.equals(this.keyName)) {
      throw new IllegalArgumentException("refusing to remove the key in use (" + keyName + ")");
    }
    store.stat(keyName);
    return writeBlob(BlobKind.TOMBSTONE, new Tombstone(keyName, clock.instant(), reason).toJson());
  }

  /** A password's key blob, as its public part describes it. */
  public record KeyInfo(String name, Instant created, String host, boolean current) {}

  /** The key blobs no tombstone removes, oldest first; a damaged one is a warning. */
  public List<KeyInfo> keys() throws IOException {
    Set<String> removed = tombstoned();
    List<KeyInfo> keys = new ArrayList<>();
    for (BlobInfo info : store.list(KeyBlob.PREFIX)) {
      if (removed.contains(info.name())) {
        continue;
      }
      try {
        KeyBlob.Stored stored = KeyBlob.describe(info.name(), store.read(info.name()));
        keys.add(
            new KeyInfo(info.name(), stored.created(), stored.host(), info.name().equals(keyName)));
      } catch (CorruptBlobException e) {
        warnOnce(e.getMessage()); // costs only its own password
      }
    }
    keys.sort(java.util.Comparator.comparing(KeyInfo::created));
    return keys;
  }

  static KdfParams defaultKdf() {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return KdfParams.argon2id(KdfParams.DEFAULT_MEMORY_KIB, KdfParams.DEFAULT_ITERATIONS, salt);
  }

  /** Names of tombstoned blobs (snapshots and keys). Unreadable tombstones are warned about. */
  public Set<String> tombstoned() throws IOException {
    return tombstones().keySet();
  }

  /**
   * The ids of every readable tombstone, by the name of the blob it forgets: one listing, and a
   * read of each tombstone this repository object has not read before.
   */
  public Map<String, List<Id>> tombstones() throws IOException {
    List<Id> ids = list(BlobKind.TOMBSTONE);
    List<Id> unread = ids.stream().filter(id -> !tombstonesRead.containsKey(id)).toList();
    for (Read<Tombstone> read :
        readBlobs(
            BlobKind.TOMBSTONE,
            unread,
            (id, payload) -> Tombstone.parse(BlobKind.TOMBSTONE.nameOf(id), payload))) {
      Tombstone t = read.value();
      if (t != null) {
        tombstonesRead.put(read.id(), t);
      } else if (read.problem() instanceof CorruptBlobException e) {
        warn(e.getMessage());
      } else if (!(read.problem() instanceof BlobNotFoundException)) { // not removed after listing
        throw Objects.requireNonNull(read.problem());
      }
    }
    Map<String, List<Id>> byTarget = new HashMap<>();
    for (Id id : ids) {
      Tombstone t = tombstonesRead.get(id);
      if (t != null) {
        byTarget.computeIfAbsent(t.target(), k -> new ArrayList<>()).add(id);
      }
    }
    return byTarget;
  }

  /**
   * The tombstone {@code id} as {@link #tombstones} read it (each is read once and never changes),
   * or null if no call has read it yet.
   */
  public @Nullable Tombstone tombstone(Id id) {
    return tombstonesRead.get(id);
  }

  @Override
  public void close() throws IOException {
    if (onClose != null) {
      onClose.run();
    } else {
      store.close();
    }
  }
}
