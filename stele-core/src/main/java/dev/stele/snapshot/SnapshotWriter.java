package dev.stele.snapshot;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.Retention;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Index;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.SnapshotManifest;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Makes one snapshot exist: the one place where a snapshot is committed, whoever built it (a backup
 * of files, or the operator's small snapshots of documents).
 *
 * <p>Write-once rule 5: in-flight state never reaches the bucket. The manifest is written once,
 * after everything it depends on is durable, and it is what makes the snapshot exist; there is no
 * object that says "in progress". So {@link #commit} does, in this order and nowhere else:
 *
 * <ol>
 *   <li>flush: the last packs are uploaded and one index blob names every pack this snapshot stored
 *       ({@link ChunkWriter#flush}); a crash before that leaves only unreferenced packs;
 *   <li>retention of what is reused: every blob written earlier that the snapshot depends on (the
 *       packs of the chunks it deduplicated, the format blob, the key blobs) is made to last until
 *       the snapshot's retain-until, so that from the moment the manifest exists everything it
 *       references is retained as long as it is (write-once.md, "Retention follows the data's
 *       need"); blobs it stored itself were created with that retention;
 *   <li>the manifest, written once ({@link SnapshotCatalog#write}).
 * </ol>
 *
 * <p>{@link #start} reloads the repository's index first: one loaded earlier by a long-lived
 * repository does not know the packs maintenance has marked (and may since have deleted), and would
 * let this snapshot reuse chunks from them.
 *
 * <p>Usage: {@link #start}, store chunks with {@link #chunks}, {@link #commit}, {@link #close}.
 * Concurrency: the chunk writer takes chunks from many threads; {@link #commit} and {@link #close}
 * must not race with them.
 */
public final class SnapshotWriter implements Closeable {
  /** Retention reads and extensions in flight at once: one or two requests each on S3. */
  private static final int RETENTION_CHECKS = 8;

  private final Repository repo;
  private final Instant time;
  private final Instant expires;
  private final Instant retainUntil;
  private final ChunkWriter chunks;

  private SnapshotWriter(Repository repo, int uploads, Instant time, Instant expires) {
    this.repo = repo;
    this.time = time;
    this.expires = expires;
    var minimum = repo.format().minimumRetention();
    this.retainUntil = expires != null ? expires : minimum == null ? null : time.plus(minimum);
    this.chunks = repo.newWriter(uploads, retainUntil);
  }

  /**
   * Starts a snapshot: reloads and loads the repository's index, and opens a chunk writer whose
   * blobs are created retained until the snapshot's retain-until ({@link
   * SnapshotManifest#retainUntil}).
   *
   * @param uploads packs uploaded in parallel
   * @param time when the snapshot is taken: its manifest's time
   * @param expires when it may be forgotten, or null (retained for the repository's minimum from
   *     {@code time})
   */
  public static SnapshotWriter start(Repository repo, int uploads, Instant time, Instant expires)
      throws IOException {
    repo.reloadIndex();
    repo.loadIndex();
    return new SnapshotWriter(repo, uploads, time, expires);
  }

  /** When the snapshot is taken: its manifest's time. */
  public Instant time() {
    return time;
  }

  /** When the snapshot may be forgotten, or null: its manifest's expiry. */
  public Instant expires() {
    return expires;
  }

  /** The index this snapshot deduplicates against, loaded fresh by {@link #start}. */
  Index index() throws IOException {
    return repo.loadIndex();
  }

  /** Stores the snapshot's chunks: file contents and trees. */
  public ChunkWriter chunks() {
    return chunks;
  }

  /**
   * Commits the snapshot: flushes the chunk writer, extends the retention of what the snapshot
   * reuses, then writes the manifest. {@code manifest} is asked for the manifest once every chunk
   * is stored, so it may read the chunk writer's counts; its time and expiry must be the ones this
   * writer was started with, since they decided the retention of what it stored.
   *
   * @return the snapshot, which exists from now on
   * @throws IllegalArgumentException if the manifest's time or expiry is not this writer's
   */
  public SnapshotCatalog.Entry commit(Function<ChunkWriter, SnapshotManifest> manifest)
      throws IOException {
    chunks.flush();
    SnapshotManifest written = manifest.apply(chunks);
    if (!written.time().equals(time) || !Objects.equals(written.expires(), expires)) {
      throw new IllegalArgumentException(
          "a snapshot started at "
              + time
              + " expiring "
              + expires
              + " cannot be committed as one"
              + " taken at "
              + written.time()
              + " expiring "
              + written.expires());
    }
    retainReused();
    return new SnapshotCatalog.Entry(new SnapshotCatalog(repo).write(written), written);
  }

  /**
   * Makes every blob written before this snapshot that it depends on last until its retain-until
   * ({@link Repository#ensureRetained}): one retention read per blob, and an extension with {@link
   * Repository#EXTENSION_SLACK} for those that fall short, so a daily snapshot extends a reused
   * pack about once a week. Nothing to do in a repository without a lock mode or minimum.
   */
  private void retainReused() throws IOException {
    if (retainUntil == null || repo.format().retentionMode() == Retention.Mode.NONE) {
      return;
    }
    List<String> names = new ArrayList<>(new TreeSet<>(chunks.reusedPacks()));
    names.add(RepositoryFormat.BLOB);
    for (BlobInfo key : repo.store().list("keys/")) {
      names.add(key.name());
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            RETENTION_CHECKS,
            r -> {
              Thread t = new Thread(r, "stele-retain-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<?>> checks = new ArrayList<>();
      for (String name : names) {
        checks.add(
            pool.submit(
                () -> {
                  repo.ensureRetained(name, retainUntil);
                  return null;
                }));
      }
      for (Future<?> check : checks) {
        check.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while extending retention");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Stops the chunk writer; packs of a snapshot never committed are recorded as abandoned. */
  @Override
  public void close() {
    chunks.close();
  }
}
