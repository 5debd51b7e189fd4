package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.BlobKind;
import dev.stele.repo.ChunkType;
import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.MaintenanceRecord;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage costs exactly what depends on it: a damaged or missing manifest, tree, index blob, key
 * blob or pack is named, and every other snapshot still lists and restores, backups and maintenance
 * go on, and maintenance deletes nothing a damaged manifest or tree might still reach.
 */
class ContainmentTest {
  private static final String OTHER_PASSWORD = "another password";

  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private InMemoryBlobStore store = new InMemoryBlobStore(clock);
  private FileBackup.Result first;
  private FileBackup.Result second;
  private FileBackup.Result third;
  private String otherKey;

  /** Three snapshots of unrelated trees, so that each has packs of its own; two passwords. */
  @BeforeEach
  void createRepository() throws IOException {
    Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
    first = backup(repo, source(1));
    second = backup(repo, source(2));
    third = backup(repo, source(3));
    otherKey = repo.addKey(OTHER_PASSWORD.toCharArray(), TestRepositories.cheapKdf());
  }

  private Path source(int seed) throws IOException {
    Path dir = tmp.resolve("source-" + seed);
    if (!Files.exists(dir)) {
      new RandomTree(seed).files(20).links(false).oddNames(false).writeTo(dir);
    }
    return dir;
  }

  private Repository open() throws IOException {
    return TestRepositories.open(store, clock);
  }

  private void damageManifest(FileBackup.Result snapshot) throws IOException {
    String name = BlobKind.SNAPSHOT.nameOf(snapshot.id());
    store.corrupt(name, (int) store.stat(name).size() / 2);
  }

  @Test
  void aDamagedManifestCostsOnlyItsSnapshotUntilItIsForgotten() throws IOException {
    damageManifest(second);
    String damaged = BlobKind.SNAPSHOT.nameOf(second.id());
    Repository repo = open();
    SnapshotCatalog catalog = new SnapshotCatalog(repo);

    SnapshotCatalog.Scan scan = catalog.scan();
    assertThat(scan.live())
        .extracting(SnapshotCatalog.Entry::id)
        .containsExactlyInAnyOrder(first.id(), third.id());
    assertThat(scan.unreadable())
        .extracting(SnapshotCatalog.Unreadable::id)
        .containsExactly(second.id());
    assertThat(catalog.list()).hasSize(2);
    assertThat(catalog.list()).hasSize(2);
    assertThat(repo.warnings()).as("named once").filteredOn(w -> w.contains(damaged)).hasSize(1);
    assertThatThrownBy(() -> catalog.resolve(second.id().hex()))
        .isInstanceOf(CorruptBlobException.class)
        .hasMessageContaining(damaged);

    assertOthersWork(repo, first, third);
    assertThat(verifyProblems()).anySatisfy(p -> assertThat(p).contains(damaged));

    // Maintenance does what deletes nothing, and says why it held back the rest.
    catalog.forget(first.id(), "test");
    clock.advance(Duration.ofHours(2));
    Maintenance.Result held = new Maintenance(open()).run(false);
    assertThat(held.packsMarked()).isZero();
    assertThat(held.heldBack()).singleElement().asString().contains(damaged).contains("forgotten");
    assertThat(recorded(held)).isEqualTo(held.heldBack());
    assertRestores(open(), third);

    // Forgotten by id, unread: maintenance proceeds.
    catalog.forget(catalog.resolveId(second.id().shortHex(), catalog.scan()), "damaged");
    assertThat(new SnapshotCatalog(open()).scan().unreadable()).isEmpty();
    Maintenance.Result proceeds = new Maintenance(open()).run(false);
    assertThat(proceeds.heldBack()).isEmpty();
    assertThat(proceeds.packsMarked()).isPositive();
    clock.advance(Duration.ofHours(7));
    assertThat(new Maintenance(open()).run(false).deleted()).isPositive();
    assertRestores(open(), third);
    assertThat(verifyProblems()).isEmpty();
  }

  @Test
  void twoDamagedManifestsAreBothNamedAndHoldMaintenanceBack() throws IOException {
    damageManifest(first);
    damageManifest(second);
    Repository repo = open();
    assertThat(new SnapshotCatalog(repo).list())
        .extracting(SnapshotCatalog.Entry::id)
        .containsExactly(third.id());
    List<String> names =
        List.of(BlobKind.SNAPSHOT.nameOf(first.id()), BlobKind.SNAPSHOT.nameOf(second.id()));
    for (String name : names) {
      assertThat(repo.warnings()).anySatisfy(w -> assertThat(w).contains(name));
    }
    assertOthersWork(repo, third);
    List<String> problems = verifyProblems();
    for (String name : names) {
      assertThat(problems).anySatisfy(p -> assertThat(p).contains(name));
    }
    clock.advance(Duration.ofHours(2));
    Maintenance.Result held = new Maintenance(open()).run(false);
    assertThat(held.packsMarked()).isZero();
    assertThat(held.heldBack()).hasSize(2);
  }

  @Test
  void aDamagedTreeCostsItsSnapshotAndHoldsBackMaintenance() throws IOException {
    Repository repo = open();
    Id root = Id.parse(second.manifest().tree());
    Location location = repo.loadIndex().find(root);
    store.corrupt(location.pack(), location.entry().offset() + location.entry().length() / 2);

    repo = open();
    assertThat(new SnapshotCatalog(repo).list()).hasSize(3);
    assertOthersWork(repo, first, third);
    assertThat(verifyProblems())
        .anySatisfy(p -> assertThat(p).contains(location.pack()).contains(root.shortHex()));

    new SnapshotCatalog(repo).forget(first.id(), "test");
    clock.advance(Duration.ofHours(2));
    Maintenance.Result held = new Maintenance(open()).run(false);
    assertThat(held.packsMarked()).isZero();
    assertThat(held.heldBack())
        .singleElement()
        .asString()
        .contains(second.id().shortHex())
        .contains(root.shortHex());
    assertThat(recorded(held)).isEqualTo(held.heldBack());
  }

  @Test
  void aMissingIndexBlobIsRecoveredFromPackFootersAndReindexedByMaintenance() throws IOException {
    List<String> indexes = store.names().stream().filter(n -> n.startsWith("index/")).toList();
    assertThat(indexes).hasSize(3);
    InMemoryBlobStore pristine = new InMemoryBlobStore(clock);
    TestRepositories.copy(store, pristine);
    for (String index : indexes) {
      store = new InMemoryBlobStore(clock);
      TestRepositories.copy(pristine, store);
      store.delete(index);

      Repository repo = open();
      assertThat(new SnapshotCatalog(repo).list()).hasSize(3);
      assertOthersWork(repo, first, second, third);
      assertThat(repo.warnings()).anySatisfy(w -> assertThat(w).contains("re-indexed"));
      assertThat(verifyProblems())
          .isNotEmpty()
          .allSatisfy(p -> assertThat(p).contains("re-indexed"));

      // Old enough to be marked if they were unindexed: the recovered packs must not be.
      clock.advance(Duration.ofHours(2));
      Maintenance.Result run = new Maintenance(open()).run(false);
      assertThat(run.heldBack()).isEmpty();
      assertThat(verifyProblems()).as("the compacted index names the recovered packs").isEmpty();
      clock.advance(Duration.ofHours(7));
      new Maintenance(open()).run(false);
      Repository after = open();
      for (FileBackup.Result s : List.of(first, second, third)) {
        assertRestores(after, s);
      }
      assertThat(after.warnings()).isEmpty();
    }
  }

  @Test
  void aMissingPackCostsOnlyTheFilesThatUseIt() throws IOException {
    Repository repo = open();
    Set<String> usedByOthers = dataPacksOf(repo, first);
    usedByOthers.addAll(dataPacksOf(repo, third));
    Set<String> onlySecond = dataPacksOf(repo, second);
    onlySecond.removeAll(usedByOthers);
    String pack = onlySecond.stream().sorted().findFirst().orElseThrow();
    String root = second.manifest().paths().get(0);
    store.delete(pack);

    repo = open();
    assertOthersWork(repo, first, third);
    Path target = Files.createTempDirectory(tmp, "restore");
    assertThat(restore(repo, second.manifest(), Path.of(root), target).warnings()).isNotEmpty();
    assertThat(verifyProblems()).anySatisfy(p -> assertThat(p).contains(pack).contains("missing"));
    new SnapshotCatalog(repo).forget(first.id(), "test");
    clock.advance(Duration.ofHours(2));
    Maintenance.Result run = new Maintenance(open()).run(false);
    assertThat(run.heldBack()).isEmpty();
    assertThat(run.packsMarked()).isPositive();
    assertRestores(open(), third);
  }

  @Test
  void aDamagedPackDueForRewriteIsLeftAsItIsAndTheRunGoesOn() throws IOException {
    Repository repo = open();
    Path half =
        MaintenanceCrashTest.halfOf(
            new RandomTree(1).files(20).links(false).oddNames(false), tmp.resolve("half"));
    backup(repo, half);
    new SnapshotCatalog(repo).forget(first.id(), "test");
    clock.advance(Duration.ofHours(2));
    List<String> due = new Maintenance(open()).run(true).record().rewrittenPacks();
    assertThat(due).hasSizeGreaterThan(1);
    // A data pack: damage to a tree would hold back every pack, which another test shows.
    Map<String, List<PackEntry>> indexed = repo.loadIndex().packs();
    String damaged =
        due.stream()
            .filter(p -> indexed.get(p).stream().allMatch(e -> e.type() == ChunkType.DATA))
            .sorted()
            .findFirst()
            .orElseThrow();
    for (PackEntry e : repo.loadIndex().packs().get(damaged)) {
      store.corrupt(damaged, e.offset() + e.length() / 2);
    }

    Maintenance.Result run = new Maintenance(open()).run(false);

    assertThat(run.heldBack())
        .singleElement()
        .asString()
        .contains(damaged)
        .contains("not rewritten");
    assertThat(run.record().rewrittenPacks()).isNotEmpty().doesNotContain(damaged);
    assertThat(run.record().markedPacks()).doesNotContain(damaged);
    assertThat(verifyProblems()).anySatisfy(p -> assertThat(p).contains(damaged));
  }

  @Test
  void aDamagedIndexBlobIsSupersededByMaintenanceAndVerifyBecomesClean() throws IOException {
    List<String> indexes = store.names().stream().filter(n -> n.startsWith("index/")).toList();
    String damaged = indexes.get(1);
    store.corrupt(damaged, (int) store.stat(damaged).size() / 2);
    assertThat(verifyProblems()).anySatisfy(p -> assertThat(p).contains(damaged));

    clock.advance(Duration.ofHours(2));
    Maintenance.Result run = new Maintenance(open()).run(false);
    assertThat(run.record().supersededIndexes()).contains(damaged);
    clock.advance(Duration.ofHours(7));
    assertThat(new Maintenance(open()).run(false).record().deleted()).contains(damaged);
    assertThat(verifyProblems()).isEmpty();
    Repository repo = open();
    for (FileBackup.Result s : List.of(first, second, third)) {
      assertRestores(repo, s);
    }
  }

  @Test
  void aMarkedPackNoIndexNamesIsKeptWhileALiveSnapshotNeedsWhatOnlyItHolds() throws IOException {
    Repository repo = open();
    Set<String> onlySecond = dataPacksOf(repo, second);
    onlySecond.removeAll(dataPacksOf(repo, first));
    onlySecond.removeAll(dataPacksOf(repo, third));
    String pack = onlySecond.stream().sorted().findFirst().orElseThrow();
    // The pack is marked, and no index names it any more.
    TestRepositories.mark(repo, pack);
    for (String index : store.names().stream().filter(n -> n.startsWith("index/")).toList()) {
      InMemoryBlobStore without = new InMemoryBlobStore(clock);
      TestRepositories.copy(store, without);
      without.delete(index);
      if (!TestRepositories.open(without, clock).loadIndex().packs().containsKey(pack)) {
        store.delete(index);
        break;
      }
    }
    assertThat(open().loadIndex().packs()).doesNotContainKey(pack);

    clock.advance(Duration.ofHours(7));
    Maintenance.Result run = new Maintenance(open()).run(false);

    assertThat(run.heldBack()).singleElement().asString().contains(pack).contains("no index");
    assertThat(store.names()).contains(pack);
    assertThat(run.record().deleted()).doesNotContain(pack);
    assertRestores(open(), third);
  }

  @Test
  void aDamagedKeyBlobCostsOnlyItsPassword() throws IOException {
    store.corrupt(otherKey, (int) store.stat(otherKey).size() / 2);
    Repository repo = open();
    assertThat(new SnapshotCatalog(repo).list()).hasSize(3);
    assertOthersWork(repo, first, second, third);
    assertThat(verifyProblems()).anySatisfy(p -> assertThat(p).contains(otherKey));
    assertThat(repo.keys()).extracting(Repository.KeyInfo::name).containsExactly(repo.keyName());
    clock.advance(Duration.ofHours(2));
    assertThat(new Maintenance(open()).run(false).heldBack()).isEmpty();
  }

  @Test
  void theOtherPasswordOpensWhenTheFirstKeyBlobIsDamaged() throws IOException {
    String mainKey = open().keyName();
    store.corrupt(mainKey, (int) store.stat(mainKey).size() / 2);
    Repository repo = Repository.open(store, OTHER_PASSWORD.toCharArray(), clock);
    assertOthersWork(repo, first, second, third);
    assertThat(new Verify(repo).run(true, VerifyListener.NONE).problems())
        .anySatisfy(p -> assertThat(p).contains(mainKey));
  }

  /** The packs holding the file data of {@code snapshot}. */
  private static Set<String> dataPacksOf(Repository repo, FileBackup.Result snapshot)
      throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    String root = snapshot.manifest().paths().get(0);
    Set<String> packs = new HashSet<>();
    for (var e : browser.list(browser.find(snapshot.manifest(), root), root, true)) {
      if (e.node().isFile()) {
        for (Id chunk : e.node().chunks()) {
          packs.add(repo.locate(chunk).pack());
        }
      }
    }
    return packs;
  }

  /** The readable snapshots restore exactly, and a new backup (choosing its parent) works. */
  private void assertOthersWork(Repository repo, FileBackup.Result... readable) throws IOException {
    for (FileBackup.Result s : readable) {
      assertRestores(repo, s);
    }
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    Path source = Path.of(third.manifest().paths().get(0));
    SnapshotCatalog.Entry parent =
        catalog.latest(TestRepositories.HOST, List.of(source.toString()));
    var options = TestRepositories.options();
    if (parent != null) {
      options = options.withParent(parent.manifest(), parent.id().hex());
    }
    FileBackup.Result fresh = backup(repo, options, source);
    assertRestores(repo, fresh);
  }

  private void assertRestores(Repository repo, FileBackup.Result snapshot) throws IOException {
    TestRepositories.assertRestoresExactly(
        repo, snapshot.manifest(), Path.of(snapshot.manifest().paths().get(0)), tmp, "restore");
  }

  private List<String> verifyProblems() throws IOException {
    return new Verify(open()).run(true, VerifyListener.NONE).problems();
  }

  /** What the maintenance record of {@code run} says it held back. */
  private List<String> recorded(Maintenance.Result run) throws IOException {
    return open().maintenanceRecords().values().stream()
        .filter(r -> r.time().equals(run.record().time()))
        .map(MaintenanceRecord::heldBack)
        .findFirst()
        .orElseThrow();
  }
}
