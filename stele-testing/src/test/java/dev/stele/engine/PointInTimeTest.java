package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobStore;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import dev.stele.testing.VersionedInMemoryBlobStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adversary holds the store's credentials: it overwrites keys with garbage and hides others
 * behind delete markers. A restore as of before the attack returns every byte; a restore without it
 * recovers the overwritten blobs from their older versions, naming each.
 */
class PointInTimeTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final VersionedInMemoryBlobStore store = new VersionedInMemoryBlobStore(clock);
  private Path first;
  private Path second;
  private FileBackup.Result one;
  private FileBackup.Result two;
  private Instant beforeAttack;

  @BeforeEach
  void twoSnapshots() throws IOException {
    Repository repo =
        TestRepositories.init(
            store,
            TestRepositories.small(clock)
                .withRetention(dev.stele.blob.Retention.Mode.COMPLIANCE, Duration.ofDays(30)));
    first = new RandomTree(11).files(25).links(false).writeTo(tmp.resolve("first"));
    second = new RandomTree(12).files(25).links(false).writeTo(tmp.resolve("second"));
    one = backup(repo, first);
    clock.advance(Duration.ofHours(1));
    two = backup(repo, second);
    clock.advance(Duration.ofHours(1));
    beforeAttack = clock.instant();
    clock.advance(Duration.ofHours(1));
  }

  private List<String> overwriteAll(String prefix) {
    List<String> attacked = new ArrayList<>();
    for (String name : store.names()) {
      if (name.startsWith(prefix)) {
        store.overwrite(name, ("garbage " + name).getBytes(StandardCharsets.UTF_8));
        attacked.add(name);
      }
    }
    return attacked;
  }

  private void hideAll(String prefix) {
    for (String name : store.names()) {
      if (name.startsWith(prefix)) {
        store.deleteMarker(name);
      }
    }
  }

  private void assertRestoresBoth(Repository repo) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    restore(repo, catalog.read(one.id()), first, tmp.resolve("r1-" + repo.hashCode()));
    restore(repo, catalog.read(two.id()), second, tmp.resolve("r2-" + repo.hashCode()));
    TreeAssert.assertSameTree(first, tmp.resolve("r1-" + repo.hashCode()));
    TreeAssert.assertSameTree(second, tmp.resolve("r2-" + repo.hashCode()));
  }

  @Test
  void restoreAsOfBeforeTheAttackReturnsEveryByte() throws IOException {
    overwriteAll("packs/");
    overwriteAll("index/");
    overwriteAll("keys/");
    overwriteAll("stele.format");
    hideAll("snapshots/");
    clock.advance(Duration.ofMinutes(5));

    BlobStore asOf = store.asOf(beforeAttack);
    Repository repo = TestRepositories.open(asOf, clock);
    assertThat(new SnapshotCatalog(repo).list()).hasSize(2);
    assertRestoresBoth(repo);
    assertThat(repo.warnings()).isEmpty();
    Verify.Result verify = new Verify(repo).run(true, VerifyListener.NONE);
    assertThat(verify.problems()).isEmpty();
    // A view is read-only: nothing can be written through it by mistake.
    assertThatThrownBy(() -> new SnapshotCatalog(repo).forget(one.id(), "x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void withoutAsOfOverwrittenBlobsAreReadFromOlderVersionsWithWarnings() throws IOException {
    List<String> attacked = new ArrayList<>();
    attacked.addAll(overwriteAll("packs/"));
    attacked.addAll(overwriteAll("index/"));
    attacked.addAll(overwriteAll("snapshots/"));
    attacked.addAll(overwriteAll("keys/"));
    attacked.addAll(overwriteAll("stele.format"));

    Repository repo = TestRepositories.open(store, clock);
    assertRestoresBoth(repo);
    List<String> warnings = repo.warnings();
    for (String name : attacked) {
      assertThat(warnings)
          .as("a warning names %s", name)
          .anyMatch(w -> w.startsWith(name + " failed verification at its current version"));
    }
    assertThat(warnings).allMatch(w -> w.contains("; read version v"));
    // verify reports each of them as damage, though the data is readable.
    Verify.Result verify = new Verify(repo).run(false, VerifyListener.NONE);
    assertThat(verify.ok()).isFalse();
  }

  @Test
  void withoutAsOfHiddenPacksAreRecoveredButHiddenSnapshotsAreNot() throws IOException {
    hideAll("packs/");
    hideAll(one.manifest() == null ? "" : "snapshots/" + one.id().hex());

    Repository repo = TestRepositories.open(store, clock);
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    // The index names the packs, so their hidden versions are looked for and found.
    restore(repo, catalog.read(two.id()), second, tmp.resolve("r2"));
    TreeAssert.assertSameTree(second, tmp.resolve("r2"));
    assertThat(repo.warnings()).anyMatch(w -> w.contains("is missing at its current version"));
    // A hidden snapshot is not listed; only the point-in-time view sees it.
    assertThat(catalog.list()).extracting(SnapshotCatalog.Entry::id).containsExactly(two.id());
    Repository asOf = TestRepositories.open(store.asOf(beforeAttack), clock);
    assertThat(new SnapshotCatalog(asOf).list()).hasSize(2);
  }

  @Test
  void aStoreWithoutVersionsRefusesPointInTime() {
    InMemoryBlobStore plain = new InMemoryBlobStore(clock);
    assertThatThrownBy(() -> plain.asOf(beforeAttack))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("point-in-time reads need a versioned store");
  }
}
