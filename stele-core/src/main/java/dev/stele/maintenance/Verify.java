package dev.stele.maintenance;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.PackCheck;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks a repository and names every damaged or missing blob.
 *
 * <p>Always: every key, index, snapshot, tombstone and maintenance blob verifies against its name
 * and tag; every tree of every live snapshot reads; every chunk a snapshot names is in the index;
 * every pack the index names exists and is long enough. With {@code readData}: every byte of every
 * pack is read and authenticated, in parallel.
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
    problems.addAll(PackCheck.checkKeys(repo));
    for (BlobKind kind : List.of(BlobKind.TOMBSTONE, BlobKind.MAINTENANCE)) {
      for (Id id : repo.list(kind)) {
        readBlob(kind, id, problems);
      }
    }
    Set<String> forgotten = repo.tombstoned();
    List<SnapshotCatalog.Entry> live = new ArrayList<>();
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    for (Id id : repo.list(BlobKind.SNAPSHOT)) {
      try {
        SnapshotManifest m = catalog.read(id);
        if (!forgotten.contains(BlobKind.SNAPSHOT.nameOf(id))) {
          live.add(new SnapshotCatalog.Entry(id, m));
        }
      } catch (BlobNotFoundException e) {
        // removed by a concurrent maintenance run
      } catch (IOException e) {
        problems.add(e.getMessage());
      }
    }
    Reachability reach = Reachability.of(repo, live, repo.format().minimumRetention());
    problems.addAll(reach.problems());
    long missing = 0;
    for (Id chunk : reach.all().keySet()) {
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
    Map<String, BlobInfo> listed = PackCheck.listPacks(repo.store());
    problems.addAll(PackCheck.missingOrShort(index, listed).values());
    long bytesRead = readData ? readPacks(index, listed, problems, listener) : 0;
    // Blobs read from an older version because the current one failed are damage too.
    problems.addAll(repo.warnings());
    return new Result(
        List.copyOf(new java.util.LinkedHashSet<>(problems)),
        live.size(),
        reach.trees(),
        listed.size(),
        index.chunkCount(),
        bytesRead);
  }

  private void readBlob(BlobKind kind, Id id, List<String> problems) {
    try {
      repo.readBlob(kind, id);
    } catch (BlobNotFoundException e) {
      // deleted by a concurrent maintenance run
    } catch (IOException e) {
      problems.add(e.getMessage());
    }
  }

  private long readPacks(
      Index index, Map<String, BlobInfo> listed, List<String> problems, VerifyListener listener)
      throws IOException {
    listener.planned(listed.values().stream().mapToLong(BlobInfo::size).sum());
    AtomicLong read = new AtomicLong();
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "stele-verify");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<?>> work = new ArrayList<>();
      for (BlobInfo info : listed.values()) {
        if (!index.packs().containsKey(info.name()) && index.markedPacks().contains(info.name())) {
          continue; // serves nothing, and maintenance deletes it (repair marks damaged packs so)
        }
        work.add(
            pool.submit(
                () -> {
                  try {
                    byte[] bytes = repo.store().read(info.name());
                    read.addAndGet(bytes.length);
                    listener.bytesRead(bytes.length);
                    problems.addAll(
                        PackCheck.check(repo, info.name(), bytes, index.packs().get(info.name())));
                  } catch (BlobNotFoundException e) {
                    // deleted by a concurrent maintenance run
                  } catch (IOException e) {
                    problems.add(info.name() + ": " + e.getMessage());
                  }
                  return null;
                }));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("verify interrupted");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return read.get();
  }
}
