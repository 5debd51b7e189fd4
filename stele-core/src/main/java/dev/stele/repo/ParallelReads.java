package dev.stele.repo;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads many standalone blobs of one kind with a few requests in flight, for the lists a command
 * reads whole (snapshot manifests, index blobs, tombstones): on S3 each read is a request whose
 * latency, not its bytes, sets the pace, so reading them one after another makes a listing cost one
 * round trip per snapshot.
 *
 * <p>Concurrency: each call owns its threads and stops them before it returns.
 */
final class ParallelReads {
  /** Requests in flight: enough to hide a loopback or LAN round trip, few enough for any server. */
  static final int IN_FLIGHT = 8;

  private static final AtomicInteger POOLS = new AtomicInteger();

  private ParallelReads() {}

  /**
   * Reads and verifies every blob {@code ids} names, turns each payload into a value with {@code
   * parse}, and returns the outcomes in the order of {@code ids}. An {@link IOException} costs only
   * its own blob; anything else is rethrown.
   */
  static <T> List<Repository.Read<T>> read(
      Repository repo, BlobKind kind, List<Id> ids, Repository.BlobParser<T> parse)
      throws IOException {
    if (ids.size() <= 1) {
      List<Repository.Read<T>> one = new ArrayList<>();
      ids.forEach(id -> one.add(readOne(repo, kind, id, parse)));
      return one;
    }
    int pool = POOLS.incrementAndGet();
    AtomicInteger thread = new AtomicInteger();
    ExecutorService readers =
        Executors.newFixedThreadPool(
            Math.min(IN_FLIGHT, ids.size()),
            r -> {
              Thread t = new Thread(r, "stele-read-" + pool + "-" + thread.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<Repository.Read<T>>> futures = new ArrayList<>();
      for (Id id : ids) {
        futures.add(readers.submit(() -> readOne(repo, kind, id, parse)));
      }
      List<Repository.Read<T>> outcomes = new ArrayList<>();
      for (Future<Repository.Read<T>> f : futures) {
        outcomes.add(f.get());
      }
      return outcomes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading " + kind + " blobs");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause()); // readOne throws nothing checked
    } finally {
      readers.shutdownNow();
    }
  }

  private static <T> Repository.Read<T> readOne(
      Repository repo, BlobKind kind, Id id, Repository.BlobParser<T> parse) {
    try {
      return new Repository.Read<>(id, parse.parse(id, repo.readBlob(kind, id)), null);
    } catch (IOException e) {
      return new Repository.Read<>(id, null, e);
    }
  }
}
