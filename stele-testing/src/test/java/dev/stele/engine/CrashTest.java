package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup that dies at any point leaves a repository that opens, whose earlier snapshots all
 * restore, and that takes new snapshots.
 */
class CrashTest {
  private static final int RUNS = 30;

  @TempDir static Path data;
  static Path first;
  static Path second;

  @TempDir Path tmp;

  @BeforeAll
  static void writeSources() throws IOException {
    first = new RandomTree(1).files(24).maxFileSize(96 << 10).writeTo(data.resolve("first"));
    second = data.resolve("second");
    new RandomTree(1).files(24).maxFileSize(96 << 10).writeTo(second.resolve("same"));
    new RandomTree(2).files(24).maxFileSize(96 << 10).writeTo(second.resolve("new"));
  }

  @Test
  void backupsCrashedAtAnyMutationLeaveARepositoryThatOpensRestoresAndTakesNewSnapshots()
      throws IOException {
    Random random = new Random(2024);
    for (int run = 0; run < RUNS; run++) {
      MutableClock clock = new MutableClock();
      boolean onDisk = run % 2 == 1;
      BlobStore store =
          onDisk
              ? new FilesystemBlobStore(tmp.resolve("repo-" + run), clock)
              : new InMemoryBlobStore(clock);
      Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
      FileBackup.Result before = backup(repo, first);

      int mutations = mutationsOfSecondBackup(store, clock);
      int n = 1 + random.nextInt(mutations);
      boolean lands = random.nextBoolean();
      String context =
          "run " + run + ": crash at mutation " + n + "/" + mutations + ", lands=" + lands;
      FaultInjectingBlobStore faulty =
          new FaultInjectingBlobStore(store, run).crashAfterMutations(n, lands);
      Repository dying = TestRepositories.open(faulty, clock);
      assertThatThrownBy(() -> backup(dying, second)).as(context).isInstanceOf(IOException.class);
      assertThat(faulty.crashed()).as(context).isTrue();

      Repository reopened = TestRepositories.open(store, clock);
      List<SnapshotCatalog.Entry> snapshots = new SnapshotCatalog(reopened).list();
      assertThat(snapshots).as(context).extracting(SnapshotCatalog.Entry::id).contains(before.id());
      // The crashed backup's own manifest exists only if the crash came after it landed.
      assertThat(snapshots).as(context).hasSizeBetween(1, 2);
      for (SnapshotCatalog.Entry e : snapshots) {
        Path source = Path.of(e.manifest().paths().get(0));
        assertRestores(reopened, e, source, context);
      }
      FileBackup.Result after = backup(reopened, second);
      assertRestores(
          TestRepositories.open(store, clock),
          new SnapshotCatalog.Entry(after.id(), after.manifest()),
          second,
          context);
      assertThat(
              new Verify(TestRepositories.open(store, clock))
                  .run(true, VerifyListener.NONE)
                  .problems())
          .as(context)
          .isEmpty();
    }
  }

  /** Counts the mutating calls a clean second backup makes, on a copy of the store. */
  private static int mutationsOfSecondBackup(BlobStore store, Clock clock) throws IOException {
    InMemoryBlobStore copy = new InMemoryBlobStore(clock);
    TestRepositories.copy(store, copy);
    AuditingBlobStore audit = new AuditingBlobStore(copy, clock);
    backup(TestRepositories.open(audit, clock), second);
    return (int) audit.calls().stream().filter(c -> c.operation().mutates()).count();
  }

  private void assertRestores(
      Repository repo, SnapshotCatalog.Entry snapshot, Path source, String context)
      throws IOException {
    TestRepositories.assertRestoresExactly(repo, snapshot.manifest(), source, tmp, context);
  }

  @Test
  void killedBackupProcessesLeaveEveryReportedSnapshotRestorable() throws Exception {
    Clock clock = Clock.systemUTC();
    Path repoDir = tmp.resolve("repo");
    Path sources = Files.createDirectories(tmp.resolve("sources"));
    TestRepositories.init(new FilesystemBlobStore(repoDir, clock), TestRepositories.small(clock));
    Random random = new Random(99);
    Map<String, Path> reported = Collections.synchronizedMap(new HashMap<>());
    for (int round = 0; round < 3; round++) {
      Process child =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  BackupLoop.class.getName(),
                  repoDir.toString(),
                  sources.toString(),
                  Integer.toString(round * 1000))
              .redirectError(tmp.resolve("child-" + round + ".err").toFile())
              .start();
      CountDownLatch firstSnapshot = new CountDownLatch(1);
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    String[] parts = line.split(" ", 2);
                    reported.put(parts[0], Path.of(parts[1]));
                    firstSnapshot.countDown();
                  }
                } catch (IOException e) {
                  // the child was killed
                }
              },
              "child-stdout-" + round);
      reader.start();
      boolean started = firstSnapshot.await(60, TimeUnit.SECONDS);
      assertThat(started)
          .as(
              "child reported a snapshot; stderr: %s",
              Files.readString(tmp.resolve("child-" + round + ".err")))
          .isTrue();
      Thread.sleep(random.nextInt(1500));
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      reader.join(10_000);
    }

    FilesystemBlobStore store = new FilesystemBlobStore(repoDir, clock);
    Repository repo = TestRepositories.open(store, clock);
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    assertThat(reported).hasSizeGreaterThanOrEqualTo(3);
    List<String> ids = new ArrayList<>(reported.keySet());
    for (String id : ids) {
      SnapshotCatalog.Entry e = catalog.resolve(id);
      assertRestores(repo, e, reported.get(id), "snapshot " + id);
    }
    Path fresh = new RandomTree(5).files(20).writeTo(tmp.resolve("fresh"));
    FileBackup.Result after = backup(repo, fresh);
    assertRestores(
        TestRepositories.open(store, clock),
        new SnapshotCatalog.Entry(after.id(), after.manifest()),
        fresh,
        "after the kills");
  }
}
