package dev.stele.snapshot;

import dev.stele.blob.Aside;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.repo.Tombstone;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The snapshots of a repository: every snapshot manifest that no tombstone forgets. Forgetting
 * writes a tombstone; the manifest and its data stay until maintenance may remove them.
 *
 * <p>A manifest that cannot be read (damaged, or written by a newer Stele) costs only its own
 * snapshot: {@link #scan} keeps it apart, {@link #list}, {@code latest} and parent selection skip
 * it with a warning, and {@link #resolveId} finds it by id so that it can be forgotten unread.
 */
public final class SnapshotCatalog {
  private final Repository repo;

  /** The order snapshots are listed in: by time, then by id. */
  public static final Comparator<Entry> OLDEST_FIRST =
      Comparator.comparing((Entry e) -> e.manifest().time()).thenComparing(Entry::id);

  public SnapshotCatalog(Repository repo) {
    this.repo = repo;
  }

  /** A snapshot and its id. */
  public record Entry(Id id, SnapshotManifest manifest) {
    public String name() {
      return BlobKind.SNAPSHOT.nameOf(id);
    }
  }

  /** A manifest no tombstone forgets that could not be read, and why. */
  public record Unreadable(Id id, IOException problem) {
    public String name() {
      return BlobKind.SNAPSHOT.nameOf(id);
    }
  }

  /** Every manifest no tombstone forgets: the readable ones oldest first, the others by id. */
  public record Scan(List<Entry> live, List<Unreadable> unreadable) {
    public Scan {
      live = List.copyOf(live);
      unreadable = List.copyOf(unreadable);
    }
  }

  /** Reads every manifest that no tombstone forgets. */
  public Scan scan() throws IOException {
    // Both are append-only, so the two listings need no order: they run at once.
    Aside<List<Id>> listing =
        Aside.start("stele-list-snapshots", () -> repo.list(BlobKind.SNAPSHOT));
    return scan(repo.tombstoned(), listing.get());
  }

  /** Reads every manifest whose name is not in {@code forgotten}. */
  public Scan scan(Set<String> forgotten) throws IOException {
    return scan(forgotten, repo.list(BlobKind.SNAPSHOT));
  }

  private Scan scan(Set<String> forgotten, List<Id> listed) throws IOException {
    List<Id> ids = new ArrayList<>(listed);
    ids.removeIf(id -> forgotten.contains(BlobKind.SNAPSHOT.nameOf(id)));
    List<Entry> live = new ArrayList<>();
    List<Unreadable> unreadable = new ArrayList<>();
    for (Repository.Read<SnapshotManifest> read : read(ids)) {
      SnapshotManifest manifest = read.value();
      IOException problem = read.problem();
      if (manifest != null) {
        live.add(new Entry(read.id(), manifest));
      } else if (problem != null && !(problem instanceof BlobNotFoundException)) {
        // (not found: removed by maintenance after listing, so it was forgotten)
        unreadable.add(new Unreadable(read.id(), problem));
      }
    }
    live.sort(OLDEST_FIRST);
    return new Scan(live, unreadable);
  }

  /** Live snapshots that can be read, oldest first; each unreadable one is a warning. */
  public List<Entry> list() throws IOException {
    return warned(scan()).live();
  }

  private Scan warned(Scan scan) {
    for (Unreadable u : scan.unreadable()) {
      repo.warnOnce(
          u.problem().getMessage() + "; snapshot " + u.id().shortHex() + " skipped (forget it)");
    }
    return scan;
  }

  public SnapshotManifest read(Id id) throws IOException {
    return parse(id, repo.readBlob(BlobKind.SNAPSHOT, id));
  }

  /**
   * Reads the manifests {@code ids} names, a few at a time ({@link Repository#readBlobs}); the
   * outcomes come in the order of {@code ids}, a missing or unreadable one costing only itself.
   */
  public List<Repository.Read<SnapshotManifest>> read(List<Id> ids) throws IOException {
    return repo.readBlobs(BlobKind.SNAPSHOT, ids, SnapshotCatalog::parse);
  }

  private static SnapshotManifest parse(Id id, byte[] payload) throws IOException {
    return SnapshotManifest.parse(BlobKind.SNAPSHOT.nameOf(id), payload);
  }

  /**
   * Finds a snapshot by {@code latest}, a full id, or a unique prefix of one.
   *
   * @throws UnknownSnapshotException if none or several match
   * @throws IOException naming the manifest if the one that matches cannot be read
   */
  public Entry resolve(String spec) throws IOException {
    Scan scan = scan();
    Id id = resolveId(spec, scan);
    for (Unreadable u : scan.unreadable()) {
      if (u.id().equals(id)) {
        throw u.problem();
      }
    }
    return warned(scan).live().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
  }

  /**
   * The id {@code spec} names among live snapshots, readable or not: what forgetting needs, since a
   * damaged manifest must be forgettable without reading it.
   *
   * @throws UnknownSnapshotException if none or several match
   */
  public Id resolveId(String spec, Scan scan) throws UnknownSnapshotException {
    return resolveIn(spec, scan);
  }

  /**
   * The id {@code spec} names among {@code scan}'s snapshots, however they were listed (from a
   * repository or a repository server).
   *
   * @throws UnknownSnapshotException if none or several match
   */
  public static Id resolveIn(String spec, Scan scan) throws UnknownSnapshotException {
    if (spec.equals("latest")) {
      if (scan.live().isEmpty()) {
        throw new UnknownSnapshotException("the repository has no snapshots");
      }
      return scan.live().get(scan.live().size() - 1).id();
    }
    String prefix = spec.toLowerCase(Locale.ROOT);
    List<Id> matches = new ArrayList<>();
    scan.live().forEach(e -> matches.add(e.id()));
    scan.unreadable().forEach(u -> matches.add(u.id()));
    matches.removeIf(id -> !id.hex().startsWith(prefix));
    if (matches.isEmpty()) {
      throw new UnknownSnapshotException("no snapshot " + spec);
    }
    if (matches.size() > 1) {
      throw new UnknownSnapshotException(
          "snapshot prefix " + spec + " is ambiguous (" + matches.size() + " snapshots match)");
    }
    return matches.get(0);
  }

  /** The newest snapshot of exactly these paths from this host, or null: the default parent. */
  public Entry latest(String host, List<String> paths) throws IOException {
    Entry found = null;
    for (Entry e : list()) {
      if (e.manifest().host().equals(host) && e.manifest().paths().equals(paths)) {
        found = e;
      }
    }
    return found;
  }

  /** Writes a snapshot manifest: from now on the snapshot exists. */
  public Id write(SnapshotManifest manifest) throws IOException {
    return repo.writeBlob(BlobKind.SNAPSHOT, manifest.toJson(), manifest.expires());
  }

  /** Forgets a snapshot by writing a tombstone; returns the tombstone's id. */
  public Id forget(Id snapshot, String reason) throws IOException {
    return repo.writeBlob(
        BlobKind.TOMBSTONE,
        new Tombstone(BlobKind.SNAPSHOT.nameOf(snapshot), repo.clock().instant(), reason).toJson());
  }
}
