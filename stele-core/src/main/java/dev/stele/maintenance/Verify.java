package dev.stele.maintenance;

import dev.stele.blob.Aside;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.PackCheck;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.repo.Tombstone;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Checks a repository and names every damaged or missing blob.
 *
 * <p>Always: every key, index, snapshot, tombstone and maintenance blob verifies against its name
 * and tag; every tree of every live snapshot reads; every chunk a snapshot names is in the index;
 * every pack the index names exists and is long enough. With {@code readData}: every byte of every
 * pack is read and authenticated, on threads of its own while the trees are walked.
 */
public final class Verify {
  private final Repository repo;

  public Verify(Repository repo) {
    this.repo = repo;
  }

  /**
   * What verification found.
   *
   * @param problems one line per problem, each naming the blob; empty when all is well
   */
  public record Result(
      List<String> problems, long snapshots, long trees, long packs, long chunks, long bytesRead) {
    public boolean ok() {
      return problems.isEmpty();
    }
  }

  public Result run(boolean readData, VerifyListener listener) throws IOException {
    List<String> problems = Collections.synchronizedList(new ArrayList<>());
    repo.reloadIndex();
    Index index = repo.loadIndex();
    problems.addAll(repo.warnings());
    // The key, tombstone and maintenance blobs are checked at once, each kind's blobs a few at a
    // time: on S3 every listing and read is a round trip. The tombstones read here are also what
    // says which snapshots are forgotten.
    Aside<List<String>> keys = Aside.start("stele-verify-keys", () -> PackCheck.checkKeys(repo));
    List<String> recordProblems = new ArrayList<>(); // its thread's until records.get()
    Aside<List<Boolean>> records =
        Aside.start(
            "stele-verify-maintenance",
            () -> readable(BlobKind.MAINTENANCE, (id, b) -> true, recordProblems));
    Set<String> forgotten = new HashSet<>();
    for (Tombstone t :
        readable(
            BlobKind.TOMBSTONE,
            (id, b) -> Tombstone.parse(BlobKind.TOMBSTONE.nameOf(id), b),
            problems)) {
      forgotten.add(t.target());
    }
    records.get();
    problems.addAll(recordProblems);
    problems.addAll(keys.get());
    List<SnapshotCatalog.Entry> live = new ArrayList<>();
    long trees;
    long bytesRead;
    for (Repository.Read<SnapshotManifest> read :
        new SnapshotCatalog(repo).read(repo.list(BlobKind.SNAPSHOT))) {
      SnapshotManifest m = read.value();
      if (m != null && !forgotten.contains(BlobKind.SNAPSHOT.nameOf(read.id()))) {
        live.add(new SnapshotCatalog.Entry(read.id(), m));
      }
      reported(read.problem(), problems);
    }
    Map<String, BlobInfo> listed = PackCheck.listPacks(repo.store());
    problems.addAll(PackCheck.missingOrShort(index, listed).values());
    // The packs are read while the trees are walked: the walk waits on small reads and leaves
    // cores idle, the pack check keeps them busy.
    try (@Nullable PackReads packs =
        readData ? new PackReads(index, listed, problems, listener) : null) {
      Reachability reach = Reachability.of(repo, live, repo.format().minimumRetention());
      problems.addAll(reach.problems());
      long missing = 0;
      for (Id chunk : reach.all()) {
        if (repo.locate(chunk) == null) {
          missing++;
          if (missing <= 20) {
            problems.add("chunk " + chunk.hex() + " is used by a snapshot but in no index or pack");
          }
        }
      }
      if (missing > 20) {
        problems.add((missing - 20) + " more chunks are missing");
      }
      trees = reach.trees();
      bytesRead = packs == null ? 0 : packs.await();
    }
    // Blobs read from an older version because the current one failed are damage too.
    problems.addAll(repo.warnings());
    return new Result(
        List.copyOf(new java.util.LinkedHashSet<>(problems)),
        live.size(),
        trees,
        listed.size(),
        index.chunkCount(),
        bytesRead);
  }

  /**
   * Every blob of {@code kind} that reads, parsed; what keeps the others from being read goes to
   * {@code problems}, one line each.
   */
  private <T> List<T> readable(BlobKind kind, Repository.BlobParser<T> parse, List<String> problems)
      throws IOException {
    List<T> values = new ArrayList<>();
    for (Repository.Read<T> read : repo.readBlobs(kind, repo.list(kind), parse)) {
      T value = read.value();
      if (value != null) {
        values.add(value);
      }
      reported(read.problem(), problems);
    }
    return values;
  }

  /** Adds a blob's read problem to {@code problems}, unless the blob was removed since listing. */
  private static void reported(@Nullable IOException problem, List<String> problems) {
    if (problem != null && !(problem instanceof BlobNotFoundException)) {
      // (not found: deleted by a concurrent maintenance run)
      problems.add(problem.getMessage());
    }
  }

  /**
   * Reads and checks every pack on threads of its own from construction on; {@link #await} waits
   * for the end. Each worker holds a window of one pack at a time ({@link PackCheck#read}).
   */
  private final class PackReads implements AutoCloseable {
    private final ExecutorService pool;
    private final List<Future<?>> work = new ArrayList<>();
    private final AtomicLong read = new AtomicLong();

    PackReads(
        Index index, Map<String, BlobInfo> listed, List<String> problems, VerifyListener listener) {
      listener.planned(listed.values().stream().mapToLong(BlobInfo::size).sum());
      int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
      pool =
          Executors.newFixedThreadPool(
              threads,
              r -> {
                Thread t = new Thread(r, "stele-verify");
                t.setDaemon(true);
                return t;
              });
      for (BlobInfo info : listed.values()) {
        if (!index.packs().containsKey(info.name()) && index.markedPacks().contains(info.name())) {
          continue; // serves nothing, and maintenance deletes it (repair marks damaged packs so)
        }
        work.add(pool.submit(() -> check(info, index, problems, listener)));
      }
    }

    private void check(BlobInfo info, Index index, List<String> problems, VerifyListener listener) {
      try {
        problems.addAll(PackCheck.read(repo, info, index.packs().get(info.name())));
        read.addAndGet(info.size());
        listener.bytesRead(info.size());
      } catch (BlobNotFoundException e) {
        // deleted by a concurrent maintenance run
      } catch (IOException e) {
        problems.add(info.name() + ": " + e.getMessage());
      }
    }

    /** Waits until every pack is checked; returns the bytes read. */
    long await() throws IOException {
      try {
        for (Future<?> f : work) {
          f.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("verify interrupted");
      } catch (ExecutionException e) {
        throw new IOException(e.getCause());
      }
      return read.get();
    }

    @Override
    public void close() {
      pool.shutdownNow();
    }
  }
}
