package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobInfo;
import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Repair;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.RefusingBlobStore;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup that fails before writing its index blob (a full disk) leaves packs no index ever named;
 * it records them as abandoned, and the next maintenance run deletes them at once, while a backup
 * whose index blob write was attempted leaves its packs to the ordinary windows.
 */
class AbandonedPacksTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore store = new InMemoryBlobStore(clock);
  private FileBackup.Result kept;
  private Path big;

  @BeforeEach
  void createRepository() throws IOException {
    Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
    kept = backup(repo, new RandomTree(1).files(10).writeTo(tmp.resolve("kept")));
    big = new RandomTree(2).files(40).maxFileSize(256 << 10).writeTo(tmp.resolve("big"));
  }

  private List<String> packs() throws IOException {
    List<String> names = new ArrayList<>();
    for (BlobInfo info : store.list("packs/")) {
      names.add(info.name());
    }
    return names;
  }

  @Test
  void packsOfABackupThatFailedBeforeItsIndexAreDeletedByTheNextRunAtOnce() throws IOException {
    List<String> before = packs();
    Repository failing =
        TestRepositories.open(new RefusingBlobStore(store, "packs/", 3, false), clock);
    assertThatThrownBy(() -> backup(failing, big)).hasMessageContaining("No space left");
    List<String> orphans = packs();
    orphans.removeAll(before);
    assertThat(orphans).hasSize(3);
    assertThat(TestRepositories.open(store, clock).maintenanceRecords().values())
        .filteredOn(MaintenanceRecord::isAbandoned)
        .singleElement()
        .satisfies(r -> assertThat(r.markedPacks()).containsAll(orphans));

    Maintenance.Result run = new Maintenance(TestRepositories.open(store, clock)).run(false);

    assertThat(run.record().deleted()).containsExactlyInAnyOrderElementsOf(orphans);
    assertThat(run.bytesFreed()).isPositive();
    assertThat(packs()).containsExactlyInAnyOrderElementsOf(before);
    Repository repo = TestRepositories.open(store, clock);
    assertThat(new Verify(repo).run(true, VerifyListener.NONE).problems()).isEmpty();
    Path target = Files.createTempDirectory(tmp, "restore");
    assertThat(restore(repo, kept.manifest(), tmp.resolve("kept"), target).warnings()).isEmpty();
    TreeAssert.assertSameTree(tmp.resolve("kept"), target);
  }

  @Test
  void aRefusalWhileSealingSmallFilesFailsTheBackupAndBlamesNoFile() throws IOException {
    // Files of one chunk are sealed by the thread that walks to them, not handed to a sealer: the
    // store's refusal reaches that thread, and must fail the backup rather than pass for a file
    // that could not be read.
    Path small = new RandomTree(3).files(2000).maxFileSize(4 << 10).writeTo(tmp.resolve("small"));
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    FileBackupListener listener =
        new FileBackupListener() {
          @Override
          public void warning(String message) {
            warnings.add(message);
          }
        };
    Repository failing =
        TestRepositories.open(new RefusingBlobStore(store, "packs/", 1, false), clock);

    assertThatThrownBy(
            () -> new FileBackup(failing, TestRepositories.options(), listener).run(List.of(small)))
        .hasMessageContaining("No space left");
    assertThat(warnings).isEmpty();
  }

  @Test
  void repairLeavesAFailedBackupsPacksToMaintenance() throws IOException {
    Repository failing =
        TestRepositories.open(new RefusingBlobStore(store, "packs/", 3, false), clock);
    assertThatThrownBy(() -> backup(failing, big)).hasMessageContaining("No space left");

    Repair.Result repair = new Repair(TestRepositories.open(store, clock)).run();

    // No snapshot needs them and the abandoned record marks them: nothing to take back.
    assertThat(repair.footerIndexed()).isEmpty();
    assertThat(repair.wroteNothing()).isTrue();
  }

  @Test
  void packsWhoseIndexBlobWriteWasAttemptedWaitForTheWindows() throws IOException {
    List<String> before = packs();
    Repository failing =
        TestRepositories.open(new RefusingBlobStore(store, "index/", 0, true), clock);
    assertThatThrownBy(() -> backup(failing, big)).hasMessageContaining("No space left");
    List<String> written = packs();
    written.removeAll(before);
    assertThat(written).isNotEmpty();
    Repository repo = TestRepositories.open(store, clock);
    assertThat(repo.maintenanceRecords().values()).noneMatch(MaintenanceRecord::isAbandoned);

    // The index blob landed although its writer saw a failure: its packs may be used already.
    assertThat(new Maintenance(repo).run(false).deleted()).isZero();
    assertThat(packs()).containsAll(written);
  }
}
