package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole life cycle — init, snapshots, forget, a new key, maintenance runs that really delete —
 * over an auditing store, then the write-once rules are checked against every call made.
 */
class WriteOnceAuditTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore memory = new InMemoryBlobStore(clock);
  private final AuditingBlobStore store = new AuditingBlobStore(memory, clock);

  @Test
  void lifeCycleWritesNoNameTwiceAndDeletesOnlyExpiredBlobsInMaintenance() throws IOException {
    store.setPhase("init");
    Repository repo =
        TestRepositories.init(
            store,
            TestRepositories.small(clock)
                .withRetention(Retention.Mode.COMPLIANCE, Duration.ofDays(1)));

    // Three versions of a source that share one subtree and differ in the rest.
    Map<String, Path> sources = new HashMap<>();
    Map<String, FileBackup.Result> snapshots = new HashMap<>();
    for (int v = 1; v <= 3; v++) {
      Path source = tmp.resolve("v" + v);
      new RandomTree(100).files(20).writeTo(source.resolve("shared"));
      new RandomTree(v).files(20).writeTo(source.resolve("own"));
      if (v == 1) {
        // Data no other version shares, so some of v1's packs die whole whatever the layout.
        byte[] unique = new byte[1 << 20];
        new java.util.Random(1).nextBytes(unique);
        java.nio.file.Files.write(source.resolve("own/unique.bin"), unique);
      }
      store.setPhase("backup");
      FileBackup.Result result = backup(repo, source);
      sources.put(result.id().hex(), source);
      snapshots.put("v" + v, result);
      clock.advance(Duration.ofMinutes(10));
    }

    store.setPhase("forget");
    new SnapshotCatalog(repo).forget(snapshots.get("v1").id(), "test");

    store.setPhase("key");
    String newKey = repo.addKey("second password".toCharArray(), TestRepositories.cheapKdf());

    // A run straight after the forget: everything is still retained and inside the windows.
    runMaintenance(repo);

    // Past the blobs' retention and the mark window: the run marks v1's dead packs.
    clock.advance(Duration.ofDays(2));
    runMaintenance(repo);
    // Past the sweep window: the next run deletes what was marked.
    clock.advance(Duration.ofHours(7));
    runMaintenance(repo);
    clock.advance(Duration.ofHours(7));
    runMaintenance(repo);
    // Packs that held live chunks were extended with a week of slack before their live chunks
    // were copied out; they are deleted once that retention has passed, never before.
    clock.advance(Duration.ofDays(9));
    runMaintenance(repo);

    store.setPhase("backup");
    Path v4 = tmp.resolve("v4");
    new RandomTree(100).files(20).writeTo(v4.resolve("shared"));
    new RandomTree(4).files(20).writeTo(v4.resolve("own"));
    FileBackup.Result last = backup(TestRepositories.open(store, clock), v4);
    sources.put(last.id().hex(), v4);

    store.assertNoNameWrittenTwice();
    store.assertDeletesOnlyIn("maintenance");
    store.assertNoDeleteOfRetained();
    assertThat(
            store.calls().stream()
                .filter(c -> c.operation() == BlobOperation.DELETE && c.succeeded())
                .map(c -> c.name().substring(0, c.name().indexOf('/') + 1)))
        .as("maintenance really deleted packs, the forgotten manifest and old indexes")
        .contains("packs/", "snapshots/", "index/");

    store.setPhase("restore");
    Repository reopened = TestRepositories.open(store, clock);
    assertThat(Repository.open(store, "second password".toCharArray(), clock).keyName())
        .isEqualTo(newKey);
    List<SnapshotCatalog.Entry> live = new SnapshotCatalog(reopened).list();
    assertThat(live).hasSize(3);
    for (SnapshotCatalog.Entry e : live) {
      Path source = sources.get(e.id().hex());
      Path target = Files.createTempDirectory(tmp, "restore");
      var restored = restore(reopened, e.manifest(), source, target);
      assertThat(restored.warnings()).isEmpty();
      TreeAssert.assertSameTree(source, target);
    }
    assertThat(new Verify(reopened).run(true, VerifyListener.NONE).problems()).isEmpty();
    store.assertDeletesOnlyIn("maintenance");
  }

  private void runMaintenance(Repository repo) throws IOException {
    store.setPhase("maintenance");
    new Maintenance(repo).run(false);
    store.setPhase("between");
  }
}
