package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers and maintenance share a repository without locks and without losing a snapshot. */
class ConcurrencyTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final AuditingBlobStore store =
      new AuditingBlobStore(new InMemoryBlobStore(clock), clock);

  /** A source with a subtree every source shares and one of its own. */
  private Path source(String name, long ownSeed) throws IOException {
    Path dir = tmp.resolve(name);
    new RandomTree(100).files(25).writeTo(dir.resolve("shared"));
    new RandomTree(ownSeed).files(25).writeTo(dir.resolve("own"));
    return dir;
  }

  @Test
  void twoWritersAndMaintenanceAtOnceLoseNoSnapshot() throws Exception {
    Repository setup = TestRepositories.init(store, TestRepositories.small(clock));
    // A forgotten snapshot whose packs are past the mark window when the writers start: the
    // maintenance running beside them marks those packs while the writers deduplicate against
    // their shared chunks.
    FileBackup.Result old = backup(setup, source("old", 50));
    new SnapshotCatalog(setup).forget(old.id(), "test");
    clock.advance(Duration.ofDays(2));
    List<Path> aSources = List.of(source("a0", 10), source("a1", 11), source("a2", 12));
    List<Path> bSources = List.of(source("b0", 20), source("a1-again", 11), source("b2", 22));

    Map<String, Path> sources = new ConcurrentHashMap<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (List<Path> list : List.of(aSources, bSources)) {
        Repository writer = TestRepositories.open(store, clock);
        writers.add(
            threads.submit(
                () -> {
                  for (Path source : list) {
                    FileBackup.Result r = backup(writer, source);
                    sources.put(r.id().hex(), source);
                  }
                  return null;
                }));
      }
      Repository maintainer = TestRepositories.open(store, clock);
      Future<Integer> maintenance =
          threads.submit(
              () -> {
                int runs = 0;
                while (writing.get() || runs < 2) {
                  new Maintenance(maintainer).run(false);
                  clock.advance(Duration.ofMinutes(1));
                  runs++;
                }
                return runs;
              });
      for (Future<?> w : writers) {
        w.get();
      }
      writing.set(false);
      assertThat(maintenance.get()).isGreaterThanOrEqualTo(2);
    } finally {
      threads.shutdownNow();
    }

    for (int i = 0; i < 2; i++) {
      clock.advance(Duration.ofHours(7));
      new Maintenance(TestRepositories.open(store, clock)).run(false);
    }

    Repository reader = TestRepositories.open(store, clock);
    List<SnapshotCatalog.Entry> live = new SnapshotCatalog(reader).list();
    assertThat(live)
        .extracting(e -> e.id().hex())
        .containsExactlyInAnyOrderElementsOf(sources.keySet());
    for (SnapshotCatalog.Entry e : live) {
      Path source = sources.get(e.id().hex());
      Path target = Files.createTempDirectory(tmp, "restore");
      var result = restore(reader, e.manifest(), source, target);
      assertThat(result.warnings()).isEmpty();
      TreeAssert.assertSameTree(source, target);
    }
    assertThat(new Verify(reader).run(true, VerifyListener.NONE).problems()).isEmpty();
    assertThat(store.calls()).anyMatch(c -> c.operation().name().equals("DELETE") && c.succeeded());
    store.assertNoNameWrittenTwice();
  }

  @Test
  void aLongLivedWriterDoesNotReuseChunksThatMaintenanceSweptAway() throws Exception {
    Repository writer = TestRepositories.init(store, TestRepositories.small(clock));
    Path old = source("old", 50);
    FileBackup.Result first = backup(writer, old);
    new SnapshotCatalog(writer).forget(first.id(), "test");
    // Maintenance in another process marks, then sweeps, the forgotten snapshot's packs.
    clock.advance(Duration.ofDays(2));
    new Maintenance(TestRepositories.open(store, clock)).run(false);
    clock.advance(Duration.ofHours(7));
    new Maintenance(TestRepositories.open(store, clock)).run(false);

    // The same writer, still open, backs up the same data again.
    FileBackup.Result again = backup(writer, old);

    Path target = Files.createTempDirectory(tmp, "restore");
    var result = restore(TestRepositories.open(store, clock), again.manifest(), old, target);
    assertThat(result.warnings()).isEmpty();
    TreeAssert.assertSameTree(old, target);
  }
}
