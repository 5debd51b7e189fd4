package dev.stele.maintenance;

import dev.stele.repo.Id;
import dev.stele.repo.IdTable;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * Every chunk (file data and trees) that live snapshots reach, each with the latest instant until
 * which some snapshot needs it.
 *
 * <p>Snapshots are walked in order of decreasing expiry, so the first visit of a tree carries the
 * latest expiry of any snapshot that reaches it and each tree is read once.
 *
 * <p>Concurrency: not thread-safe; {@link #of} reads trees on threads of its own and merges what
 * they read on the calling thread.
 */
final class Reachability {
  /** Trees read at once: enough to keep every core busy, few enough to bound what is held. */
  private static final int BATCH = 64;

  private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  /** A batch shorter than this is read by the walking thread alone. */
  private static final int SMALL_BATCH = 8;

  /**
   * Every chunk reached, with the index in {@link #expiries} of the latest instant it is needed.
   */
  private final IdTable needed = new IdTable();

  /** The distinct instants {@link #needed} refers to, at most one per snapshot. */
  private final List<Instant> expiries = new ArrayList<>();

  private final List<String> problems = new ArrayList<>();
  private long trees;

  private Reachability() {}

  /**
   * Walks every snapshot in {@code live}. A tree that cannot be read becomes a {@link #problems
   * problem}: the walk is then incomplete, and nothing may be deleted on the strength of it.
   */
  static Reachability of(Repository repo, List<SnapshotCatalog.Entry> live, Duration minimum)
      throws IOException {
    Reachability r = new Reachability();
    List<SnapshotCatalog.Entry> byExpiry = new ArrayList<>(live);
    byExpiry.sort(
        Comparator.comparing((SnapshotCatalog.Entry e) -> expiry(e.manifest(), minimum))
            .reversed());
    ExecutorService pool =
        Executors.newFixedThreadPool(
            THREADS - 1,
            task -> {
              Thread t = new Thread(task, "stele-walk");
              t.setDaemon(true);
              return t;
            });
    try {
      for (SnapshotCatalog.Entry e : byExpiry) {
        r.walk(repo, e, expiry(e.manifest(), minimum), pool);
      }
    } finally {
      pool.shutdownNow();
    }
    return r;
  }

  /** Until when a snapshot's data must be kept: its expiry, or its time plus the minimum. */
  static Instant expiry(SnapshotManifest m, Duration minimum) {
    return m.retainUntil(minimum);
  }

  /**
   * Walks one snapshot, depth first. Trees are read and decoded in batches of at most {@value
   * #BATCH}, by this thread and {@code pool} (reading is what costs: each tree is authenticated,
   * decrypted and decompressed), and merged into {@link #needed} by this thread in the order they
   * were queued, so the result does not depend on timing and at most one batch of decoded trees is
   * held.
   */
  private void walk(
      Repository repo, SnapshotCatalog.Entry snapshot, Instant until, ExecutorService pool)
      throws IOException {
    if (expiries.isEmpty() || !expiries.get(expiries.size() - 1).equals(until)) {
      expiries.add(until);
    }
    int expiry = expiries.size() - 1;
    List<Id> pending = new ArrayList<>();
    Id root = Id.parse(snapshot.manifest().tree());
    if (needed.putIfAbsent(root, expiry) < 0) {
      pending.add(root);
    }
    while (!pending.isEmpty()) {
      List<Id> batch = pending.subList(Math.max(0, pending.size() - BATCH), pending.size());
      List<Id> ids = new ArrayList<>(batch);
      batch.clear();
      // This thread reads every THREADS-th tree itself and the pool the others, so no core idles
      // and a small batch (the walk of a snapshot that shares most trees) costs no hand-offs.
      boolean alone = ids.size() < SMALL_BATCH;
      List<@Nullable Future<Tree>> reads = new ArrayList<>(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        Id treeId = ids.get(i);
        reads.add(
            alone || i % THREADS == 0
                ? null
                : pool.submit(() -> Tree.decode(treeId, repo.readChunk(treeId))));
      }
      for (int i = 0; i < ids.size(); i++) {
        Tree tree;
        try {
          Future<Tree> read = reads.get(i);
          tree = read != null ? await(read) : Tree.decode(ids.get(i), repo.readChunk(ids.get(i)));
          trees++;
        } catch (InterruptedIOException e) {
          throw e;
        } catch (IOException e) {
          problems.add(
              "snapshot "
                  + snapshot.id().shortHex()
                  + ": tree "
                  + ids.get(i).shortHex()
                  + ": "
                  + e.getMessage());
          continue;
        }
        for (Node node : tree.nodes()) {
          if (node.isDirectory()) {
            if (needed.putIfAbsent(node.subtree(), expiry) < 0) {
              pending.add(node.subtree());
            }
          } else {
            for (Id chunk : node.chunks()) {
              needed.putIfAbsent(chunk, expiry);
            }
          }
        }
      }
    }
  }

  private static Tree await(Future<Tree> read) throws IOException {
    try {
      return read.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("walk interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("reading a tree failed", e.getCause());
    }
  }

  boolean reaches(Id chunk) {
    return needed.get(chunk) >= 0;
  }

  /** Until when {@code chunk} is needed, or null if no live snapshot reaches it. */
  @Nullable Instant neededUntil(Id chunk) {
    int expiry = needed.get(chunk);
    return expiry < 0 ? null : expiries.get(expiry);
  }

  /** Every chunk and tree reached. */
  Iterable<Id> all() {
    return needed;
  }

  List<String> problems() {
    return problems;
  }

  long trees() {
    return trees;
  }
}
