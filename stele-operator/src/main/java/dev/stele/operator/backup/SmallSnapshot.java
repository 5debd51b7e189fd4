package dev.stele.operator.backup;

import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotWriter;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One snapshot the operator builds in memory: small files (such as {@code backup.json} or {@code
 * restore.json}) and subtrees already in the repository, in a {@link TreeBuilder}, committed by a
 * {@link SnapshotWriter} (which owns the write-once commit: flush, retention of what is reused, the
 * manifest). What is the operator's own: the manifest's host and user, the counts it gives, and
 * that a manifest written for a resource is found again by its labels ({@link #find}), so it is
 * never written twice.
 *
 * <p>Usage: {@link #start}, add to {@link #root} (with {@link #writer} for chunks), {@link #write},
 * close. Not thread-safe.
 */
public final class SmallSnapshot implements Closeable {
  private final Repository repo;
  private final SnapshotWriter snapshot;
  private final TreeBuilder root = new TreeBuilder();

  private SmallSnapshot(Repository repo, SnapshotWriter snapshot) {
    this.repo = repo;
    this.snapshot = snapshot;
  }

  /**
   * Starts a snapshot ({@link SnapshotWriter#start}).
   *
   * @param uploads packs uploaded in parallel
   * @param time when the snapshot is taken: the manifest's time, from which its duration is counted
   * @param expires when it may be forgotten, or null (retained for the repository's minimum from
   *     {@code time})
   */
  public static SmallSnapshot start(Repository repo, int uploads, Instant time, Instant expires)
      throws IOException {
    return new SmallSnapshot(repo, SnapshotWriter.start(repo, uploads, time, expires));
  }

  /**
   * Writes a snapshot of a few small files held in memory ({@code path → bytes}, paths relative
   * with {@code /} between directories), one data chunk each, taken now.
   *
   * @param path the manifest's source path, such as {@code /restore}
   * @param expires when it may be forgotten, or null (the repository's minimum retention)
   * @return the snapshot's id
   */
  public static Id write(
      Repository repo,
      Map<String, byte[]> files,
      String path,
      List<String> tags,
      Map<String, String> labels,
      Instant expires)
      throws IOException {
    try (SmallSnapshot snapshot = start(repo, 1, repo.clock().instant(), expires)) {
      long bytes = 0;
      for (var file : files.entrySet()) {
        String[] parts = file.getKey().split("/", -1);
        TreeBuilder dir = snapshot.root;
        for (int i = 0; i < parts.length - 1; i++) {
          dir = dir.dir(parts[i]);
        }
        dir.file(parts[parts.length - 1], file.getValue(), snapshot.writer());
        bytes += file.getValue().length;
      }
      Counts counts = new Counts(files.size(), snapshot.root.directories(), bytes, files.size(), 0);
      return snapshot.write(path, tags, labels, counts, null).id();
    }
  }

  /**
   * The snapshot tagged {@code tag} whose label {@code label} is {@code value}, forgotten or not,
   * or null: one listing, and a read of each manifest this process has not seen ({@link
   * Manifests}). A snapshot written once for one resource (a backup's manifest, a restore's
   * results) is looked for this way before it is written.
   */
  public static SnapshotCatalog.Entry find(Repository repo, String tag, String label, String value)
      throws IOException {
    for (SnapshotCatalog.Entry e : Manifests.all(repo)) {
      SnapshotManifest m = e.manifest();
      if (m.tags().contains(tag) && value.equals(m.labels().get(label))) {
        return e;
      }
    }
    return null;
  }

  /**
   * The content of the file at {@code path} in {@code snapshot} (such as {@code backup.json}).
   *
   * @throws java.nio.file.NoSuchFileException if the snapshot has no such path
   */
  public static byte[] read(Repository repo, SnapshotManifest snapshot, String path)
      throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    browser.cat(browser.find(snapshot, path), out);
    return out.toByteArray();
  }

  /** Stores the chunks of the snapshot's files and trees. */
  public ChunkWriter writer() {
    return snapshot.chunks();
  }

  /** The snapshot's root directory. */
  public TreeBuilder root() {
    return root;
  }

  /**
   * What a snapshot holds, as the caller counted it (see {@link SnapshotManifest.Stats}).
   *
   * @param skipped what could not be stored (a backup's errors)
   */
  public record Counts(long files, long dirs, long bytes, long filesNew, long skipped) {}

  /**
   * Writes the root's trees, then commits the snapshot ({@link SnapshotWriter#commit}) with host
   * {@code kubernetes} and user {@code stele-operator}. Its stats are {@code counts} and the chunks
   * stored by this writer, plus those in {@code earlier}.
   *
   * @param earlier chunks stored for this snapshot by an earlier snapshot's writer (a backup's
   *     resources part), or null
   */
  public SnapshotCatalog.Entry write(
      String path,
      List<String> tags,
      Map<String, String> labels,
      Counts counts,
      SnapshotManifest.Stats earlier)
      throws IOException {
    Id tree = root.write(writer());
    SnapshotManifest.Stats none = new SnapshotManifest.Stats(0, 0, 0, 0, 0, 0, 0, 0, 0);
    SnapshotManifest.Stats before = earlier == null ? none : earlier;
    return snapshot.commit(
        chunks ->
            new SnapshotManifest(
                SnapshotManifest.VERSION,
                snapshot.time(),
                "kubernetes",
                "stele-operator",
                List.of(path),
                tags,
                null,
                tree.hex(),
                snapshot.expires(),
                new SnapshotManifest.Stats(
                    counts.files(),
                    counts.dirs(),
                    counts.bytes(),
                    counts.filesNew(),
                    before.chunksNew() + chunks.chunksStored(),
                    before.bytesNew() + chunks.bytesNew(),
                    before.bytesStored() + chunks.bytesStored(),
                    counts.skipped(),
                    Math.max(0, repo.clock().millis() - snapshot.time().toEpochMilli()) / 1000.0),
                labels));
  }

  @Override
  public void close() {
    snapshot.close();
  }
}
