package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.FaultInjectingBlobStore;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maintenance run killed at any write or delete leaves a repository that the next run brings back
 * to a clean {@code verify --read-data}, with every live snapshot restoring byte for byte.
 */
class MaintenanceCrashTest {
  @TempDir static Path data;
  static Path kept;
  static Path keptToo;

  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();

  /** Source trees: each later one keeps half the files of an earlier one, so packs go half dead. */
  @BeforeAll
  static void writeSources() throws IOException {
    new RandomTree(1).files(30).maxFileSize(64 << 10).writeTo(data.resolve("a"));
    kept = halfOf(new RandomTree(1).files(30).maxFileSize(64 << 10), data.resolve("b"));
    new RandomTree(2).files(30).maxFileSize(64 << 10).writeTo(data.resolve("c"));
    keptToo = halfOf(new RandomTree(2).files(30).maxFileSize(64 << 10), data.resolve("d"));
  }

  static Path halfOf(RandomTree tree, Path root) throws IOException {
    tree.writeTo(root);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    for (int i = 0; i < files.size(); i += 2) {
      Files.delete(files.get(i));
    }
    return root;
  }

  /**
   * A repository whose next maintenance run does every kind of mutation: it sweeps packs and index
   * blobs an earlier run marked and superseded, rewrites half-dead packs (new packs, their index
   * blob), writes a compacted index, deletes a forgotten manifest and a spent tombstone, marks, and
   * writes its record.
   */
  private InMemoryBlobStore repositoryDueForMaintenance() throws IOException {
    InMemoryBlobStore store = new InMemoryBlobStore(clock);
    Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    FileBackup.Result a = backup(repo, data.resolve("a"));
    backup(repo, kept);
    FileBackup.Result c = backup(repo, data.resolve("c"));
    backup(repo, keptToo);
    catalog.forget(a.id(), "test");
    clock.advance(Duration.ofHours(2));
    Maintenance.Result first = new Maintenance(repo).run(false);
    assertThat(first.packsMarked()).isPositive();
    assertThat(first.packsRewritten()).isPositive();
    catalog.forget(c.id(), "test");
    clock.advance(Duration.ofHours(7));
    return store;
  }

  @Test
  void maintenanceKilledAtAnyMutationIsRepairedByTheNextRun() throws IOException {
    InMemoryBlobStore pristine = repositoryDueForMaintenance();
    List<BlobOperation> mutations = mutationsOfMaintenance(pristine);
    assertThat(mutations)
        .as("the run under test creates (packs, index blobs, record) and deletes")
        .contains(BlobOperation.CREATE, BlobOperation.DELETE);
    assertThat(mutations.stream().filter(m -> m == BlobOperation.CREATE))
        .as("rewritten packs and their index blob, the compacted index, the record")
        .hasSizeGreaterThanOrEqualTo(4);
    System.out.println("maintenance run under test, mutations in order: " + mutations);
    for (int n = 1; n <= mutations.size(); n++) {
      for (boolean lands : new boolean[] {false, true}) {
        String context =
            "crash at mutation "
                + n
                + "/"
                + mutations.size()
                + " ("
                + mutations.get(n - 1)
                + ")"
                + ", lands="
                + lands;
        BlobStore store =
            n % 3 == 0
                ? new FilesystemBlobStore(tmp.resolve("repo-" + n + "-" + lands), clock)
                : new InMemoryBlobStore(clock);
        copyAged(pristine, store);
        FaultInjectingBlobStore faulty =
            new FaultInjectingBlobStore(store, n).crashAfterMutations(n, lands);
        Repository dying = TestRepositories.open(faulty, clock);
        assertThatThrownBy(() -> new Maintenance(dying).run(false))
            .as(context)
            .isInstanceOf(IOException.class);
        assertThat(faulty.crashed()).as(context).isTrue();

        new Maintenance(TestRepositories.open(store, clock)).run(false);
        assertCleanAndRestorable(TestRepositories.open(store, clock), context);
      }
    }
  }

  /**
   * Copies {@code from} into {@code to}, then lets {@code markWindow} pass: a copy's blobs are
   * created now, and the run under test must find the packs old enough to mark and rewrite.
   */
  private void copyAged(BlobStore from, BlobStore to) throws IOException {
    TestRepositories.copy(from, to);
    clock.advance(Duration.ofHours(2));
  }

  /** The mutating calls a clean maintenance run makes, in order, on a copy of the store. */
  private List<BlobOperation> mutationsOfMaintenance(BlobStore store) throws IOException {
    InMemoryBlobStore copy = new InMemoryBlobStore(clock);
    copyAged(store, copy);
    AuditingBlobStore audit = new AuditingBlobStore(copy, clock);
    new Maintenance(TestRepositories.open(audit, clock)).run(false);
    return audit.calls().stream().map(c -> c.operation()).filter(BlobOperation::mutates).toList();
  }

  private void assertCleanAndRestorable(Repository repo, String context) throws IOException {
    assertThat(new Verify(repo).run(true, VerifyListener.NONE).problems()).as(context).isEmpty();
    List<SnapshotCatalog.Entry> live = new SnapshotCatalog(repo).list();
    assertThat(live).as(context).isNotEmpty();
    for (SnapshotCatalog.Entry e : live) {
      TestRepositories.assertRestoresExactly(
          repo, e.manifest(), Path.of(e.manifest().paths().get(0)), tmp, context);
    }
  }

  @Test
  void killedMaintenanceProcessesLeaveARepositoryTheNextRunMakesClean() throws Exception {
    Clock system = Clock.systemUTC();
    Path repoDir = tmp.resolve("repo");
    Path sources = Files.createDirectories(tmp.resolve("sources"));
    TestRepositories.init(
        new FilesystemBlobStore(repoDir, system),
        TestRepositories.small(system).withWindows(Duration.ZERO, Duration.ZERO));
    Random random = new Random(7);
    Map<Integer, String> lastLines = new TreeMap<>();
    for (int round = 0; round < 3; round++) {
      Path err = tmp.resolve("child-" + round + ".err");
      Process child =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  MaintenanceLoop.class.getName(),
                  repoDir.toString(),
                  sources.toString(),
                  Integer.toString(round * 1000))
              .redirectError(err.toFile())
              .start();
      CountDownLatch maintained = new CountDownLatch(1);
      int r = round;
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    lastLines.put(r, line);
                    maintained.countDown();
                  }
                } catch (IOException e) {
                  // the child was killed
                }
              },
              "child-stdout-" + round);
      reader.start();
      assertThat(maintained.await(120, TimeUnit.SECONDS))
          .as("child finished a maintenance run; stderr: %s", Files.readString(err))
          .isTrue();
      // Into the next run's maintenance, which takes most of each iteration.
      Thread.sleep(200 + random.nextInt(1500));
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      reader.join(10_000);
    }
    assertThat(lastLines).hasSize(3);

    FilesystemBlobStore store = new FilesystemBlobStore(repoDir, system);
    new Maintenance(TestRepositories.open(store, system)).run(false);
    assertCleanAndRestorable(TestRepositories.open(store, system), "after three kills");
  }
}
