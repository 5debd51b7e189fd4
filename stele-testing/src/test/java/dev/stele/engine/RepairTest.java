package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobInfo;
import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Repair;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.BlobKind;
import dev.stele.repo.ChunkType;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import dev.stele.testing.VersionedInMemoryBlobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage is repairable without a delete or a rewrite: for each kind of damage, restore shows it,
 * repair names what is lost, a backup of the same data heals it, and maintenance later removes the
 * damaged packs with nothing lost.
 */
class RepairTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore pristine = new InMemoryBlobStore(clock);
  private Path first;
  private Path second;
  private FileBackup.Result a;
  private FileBackup.Result b;

  /** Absolute path of each file of a and b to the locations of its chunks, in order. */
  private final Map<String, List<Loc>> files = new TreeMap<>();

  private record Loc(String pack, PackEntry entry) {}

  /**
   * What a kind of damage costs until a re-backup: the files lost (absolute paths), and the files
   * that have a chunk in the damaged pack but keep all of theirs.
   */
  /**
   * What a damage costs: the files lost, those of the damaged pack that must survive, and whether a
   * restore before repair shows it (a lost index entry alone does not: readers take the chunks back
   * from pack footers — but never from a marked pack).
   */
  private record Expect(Set<String> lost, Set<String> survivors, boolean shownBeforeRepair) {
    Expect(Set<String> lost, Set<String> survivors) {
      this(lost, survivors, !lost.isEmpty());
    }
  }

  @BeforeEach
  void createRepository() throws IOException {
    Repository repo = TestRepositories.init(pristine, TestRepositories.small(clock));
    first = new RandomTree(1).files(30).links(false).oddNames(false).writeTo(tmp.resolve("first"));
    second =
        new RandomTree(2).files(20).links(false).oddNames(false).writeTo(tmp.resolve("second"));
    a = backup(repo, first);
    clock.advance(Duration.ofMinutes(1));
    b = backup(repo, second);
    clock.advance(Duration.ofMinutes(1));
    index(repo, a, first);
    index(repo, b, second);
  }

  private void index(Repository repo, FileBackup.Result snapshot, Path source) throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    String root = source.toString();
    for (var e : browser.list(browser.find(snapshot.manifest(), root), root, true)) {
      if (e.node().isFile()) {
        List<Loc> locs = new ArrayList<>();
        for (Id chunk : e.node().chunks()) {
          var location = repo.index().find(chunk);
          locs.add(new Loc(location.pack(), location.entry()));
        }
        files.put(e.path(), locs);
      }
    }
  }

  @Test
  void aTruncatedPackIsSalvagedAndHealedByABackup() throws IOException {
    drill(
        store -> {
          for (String pack : dataPacksOfA(2)) {
            List<PackEntry> entries = sortedEntries(pack);
            PackEntry cutIn = entries.get(entries.size() / 2);
            int cut = cutIn.offset() + cutIn.length() / 2;
            Expect expect = expect(pack, e -> e.offset() + e.length() > cut);
            if (!expect.survivors().isEmpty()) {
              replace(store, pack, Arrays.copyOf(pristine.read(pack), cut));
              return expect;
            }
          }
          throw new AssertionError("no pack with a file before the cut");
        });
  }

  @Test
  void aFlippedByteInOneChunkCostsOnlyThatChunk() throws IOException {
    drill(
        store -> {
          for (String pack : dataPacksOfA(2)) {
            PackEntry hit = sortedEntries(pack).get(sortedEntries(pack).size() / 2);
            Expect expect = expect(pack, e -> e.equals(hit));
            if (!expect.survivors().isEmpty()) {
              store.corrupt(pack, hit.offset() + hit.length() / 2);
              return expect;
            }
          }
          throw new AssertionError("no pack with a file beside the damaged chunk");
        });
  }

  @Test
  void aDeletedPackIsHealedByABackup() throws IOException {
    drill(
        store -> {
          String pack = dataPacksOfA(1).get(0);
          store.delete(pack);
          return expect(pack, e -> true);
        });
  }

  @Test
  void aDeletedIndexBlobIsRebuiltFromPackFootersWithoutABackup() throws IOException {
    drill(
        store -> {
          // The newest index blob is the second backup's, naming only its packs: a stays intact.
          String ofB =
              pristine.list("index/").stream()
                  .max(Comparator.comparing(BlobInfo::created))
                  .orElseThrow()
                  .name();
          store.delete(ofB);
          return new Expect(Set.of(), Set.of());
        });
  }

  @Test
  void aPackNoIndexNamesIsTakenBackFromItsFooter() throws IOException {
    drill(
        store -> {
          String pack = dataPacksOfA(1).get(0);
          dropFromTheIndex(store, pack);
          return new Expect(Set.of(), Set.of());
        });
  }

  @Test
  void maintenanceReindexesAPackWhoseIndexBlobWasLostSoRepairHasNothingLeft() throws IOException {
    InMemoryBlobStore store = copy();
    String pack = dataPacksOfA(1).get(0);
    dropFromTheIndex(store, pack);
    Repository repo = TestRepositories.open(store, clock);
    Duration windows = repo.format().markWindow().plus(repo.format().sweepWindow());
    clock.advance(windows.plusMinutes(1));
    assertThat(new Maintenance(repo).run(false).record().markedPacks()).doesNotContain(pack);
    clock.advance(windows.plusMinutes(1));
    new Maintenance(repo).run(false);
    assertThat(store.names()).contains(pack);
    repo.reloadIndex();
    assertThat(repo.loadIndex().packs()).containsKey(pack);
    assertThat(new Repair(repo).run().wroteNothing()).isTrue();
    assertThat(restoreDifferences(repo, a, first)).isEmpty();
    assertThat(restoreDifferences(repo, b, second)).isEmpty();
    assertThat(verify(repo)).isEmpty();
  }

  @Test
  void aPackAnOlderMaintenanceMarkedForWantOfAnIndexIsTakenBack() throws IOException {
    drill(
        store -> {
          String pack = dataPacksOfA(1).get(0);
          dropFromTheIndex(store, pack);
          // As a Stele that marked every pack no index names would have.
          TestRepositories.mark(TestRepositories.open(store, clock), pack);
          return new Expect(Set.of(), Set.of(), true);
        });
  }

  @Test
  void onAVersionedStoreAnOverwrittenPackIsSalvagedWholeFromItsOlderVersion() throws IOException {
    VersionedInMemoryBlobStore store = new VersionedInMemoryBlobStore(clock);
    Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
    FileBackup.Result snapshot = backup(repo, first);
    String pack =
        repo.loadIndex().packs().entrySet().stream()
            .filter(p -> p.getValue().stream().allMatch(e -> e.type() == ChunkType.DATA))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    byte[] bytes = store.read(pack);
    store.overwrite(pack, Arrays.copyOf(bytes, bytes.length / 2));

    Repair.Result repaired = new Repair(TestRepositories.open(store, clock)).run();

    assertThat(repaired.damaged())
        .singleElement()
        .satisfies(d -> assertThat(d.name()).isEqualTo(pack))
        .satisfies(d -> assertThat(d.lost()).isZero())
        .satisfies(d -> assertThat(d.salvaged()).isPositive());
    assertThat(repaired.incomplete()).isEmpty();
    Repository after = TestRepositories.open(store, clock);
    assertThat(restoreDifferences(after, snapshot, first)).isEmpty();
    assertThat(verify(after)).isEmpty();
  }

  @Test
  void repairOfAHealthyRepositoryWritesNothing() throws IOException {
    AuditingBlobStore audit = new AuditingBlobStore(copy(), clock);
    Repair.Result result = new Repair(TestRepositories.open(audit, clock)).run();
    assertThat(result.wroteNothing()).isTrue();
    assertThat(result.incomplete()).isEmpty();
    assertThat(result.snapshots()).hasSize(2);
    assertThat(creates(audit)).isEmpty();
    assertThat(audit.calls()).noneMatch(c -> c.operation() == BlobOperation.DELETE);
  }

  @Test
  void aBackupDoesNotDeduplicateOntoATruncatedPack() throws IOException {
    InMemoryBlobStore store = copy();
    String pack = dataPacksOfA(1).get(0);
    replace(store, pack, Arrays.copyOf(pristine.read(pack), (int) pristine.stat(pack).size() / 2));
    Repository repo = TestRepositories.open(store, clock);

    FileBackup.Result again = backup(repo, first);

    assertThat(again.warnings())
        .anySatisfy(w -> assertThat(w).contains(pack).contains("stele repair"));
    // Every chunk of the damaged pack that a file uses was stored again elsewhere.
    repo.reloadIndex();
    Set<Id> elsewhere = new HashSet<>();
    repo.loadIndex()
        .packs()
        .forEach(
            (p, entries) -> {
              if (!p.equals(pack)) {
                entries.forEach(e -> elsewhere.add(e.id()));
              }
            });
    assertThat(files.values().stream().flatMap(List::stream).filter(l -> l.pack().equals(pack)))
        .isNotEmpty()
        .allMatch(l -> elsewhere.contains(l.entry().id()));
    // So repair loses nothing: every snapshot is whole again without another backup.
    assertThat(new Repair(repo).run().incomplete()).isEmpty();
    assertThat(restoreDifferences(repo, again, first)).isEmpty();
    assertThat(restoreDifferences(repo, a, first)).isEmpty();
  }

  /**
   * Damages a copy of the repository and runs the whole drill on it: restore shows the damage (or,
   * when only index entries are lost, recovers them from pack footers); repair names what is lost,
   * which is exactly what restore then misses; a backup of the same sources heals every snapshot;
   * verify is clean, and stays clean after maintenance has deleted the damaged packs; repair never
   * deletes, and a second one writes nothing.
   */
  private void drill(Damage damage) throws IOException {
    InMemoryBlobStore memory = copy();
    Set<String> before = new HashSet<>(memory.names());
    Expect expect = damage.apply(memory);
    AuditingBlobStore audit = new AuditingBlobStore(memory, clock);
    Repository repo = TestRepositories.open(audit, clock);
    int shown =
        restoreDifferences(repo, a, first).size() + restoreDifferences(repo, b, second).size();
    if (expect.shownBeforeRepair()) {
      assertThat(shown).as("restore shows the damage").isPositive();
    } else {
      assertThat(shown).as("restore before repair recovers from footers").isZero();
    }

    audit.setPhase("repair");
    Repair.Result repaired = new Repair(repo).run();
    assertThat(repaired.wroteNothing()).isFalse();
    assertThat(audit.calls()).noneMatch(c -> c.operation() == BlobOperation.DELETE);
    List<String> lost =
        repaired.incomplete().stream().flatMap(st -> st.missingFiles().stream()).toList();
    assertThat(repaired.incomplete()).allMatch(st -> st.missingTrees().isEmpty());
    assertThat(lost).containsExactlyInAnyOrderElementsOf(expect.lost());
    // Before any backup: only lost files differ; the rest of a damaged pack serves.
    List<String> differences = new ArrayList<>();
    differences.addAll(absolute(first, restoreDifferences(repo, a, first)));
    differences.addAll(absolute(second, restoreDifferences(repo, b, second)));
    // (A lost chunk of zeros in a sparse file may restore right by chance, so not every lost file
    // need differ.)
    assertThat(differences.isEmpty()).isEqualTo(expect.lost().isEmpty());
    assertThat(differences)
        .allMatch(d -> expect.lost().stream().anyMatch(f -> d.startsWith("'" + f + "'")));
    for (String survivor : expect.survivors()) {
      assertThat(differences).noneMatch(d -> d.startsWith("'" + survivor + "'"));
    }

    audit.setPhase("backup");
    backup(repo, TestRepositories.options().withParent(a.manifest(), a.id().hex()), first);
    backup(repo, TestRepositories.options().withParent(b.manifest(), b.id().hex()), second);
    assertThat(restoreDifferences(repo, a, first)).isEmpty();
    assertThat(restoreDifferences(repo, b, second)).isEmpty();
    assertThat(verify(repo)).isEmpty();

    audit.setPhase("repair again");
    Repair.Result again = new Repair(repo).run();
    assertThat(again.wroteNothing()).isTrue();
    assertThat(again.incomplete()).isEmpty();
    assertThat(creates(audit)).filteredOn(c -> c.phase().equals("repair again")).isEmpty();

    audit.setPhase("maintenance");
    Set<String> damagedPacks = new TreeSet<>(before);
    damagedPacks.removeIf(n -> !n.startsWith("packs/"));
    damagedPacks.removeAll(packsNamedBy(repo));
    new Maintenance(repo).run(false);
    Duration format = repo.format().markWindow().plus(repo.format().sweepWindow());
    clock.advance(format.plusHours(1));
    new Maintenance(repo).run(false);
    clock.advance(format.plusHours(1));
    new Maintenance(repo).run(false);
    assertThat(memory.names()).noneMatch(damagedPacks::contains);
    assertThat(verify(repo)).isEmpty();
    assertThat(restoreDifferences(repo, a, first)).isEmpty();
    assertThat(restoreDifferences(repo, b, second)).isEmpty();
    audit.assertDeletesOnlyIn("maintenance");
    audit.assertNoNameWrittenTwice();
  }

  private interface Damage {
    Expect apply(InMemoryBlobStore store) throws IOException;
  }

  private interface Lost {
    boolean test(PackEntry e);
  }

  /** The files that lose a chunk of {@code pack} matching {@code lost}, and those that keep. */
  private Expect expect(String pack, Lost lost) {
    Set<String> gone = new TreeSet<>();
    Set<String> kept = new TreeSet<>();
    for (var f : files.entrySet()) {
      List<Loc> inPack = f.getValue().stream().filter(l -> l.pack().equals(pack)).toList();
      if (inPack.stream().anyMatch(l -> lost.test(l.entry()))) {
        gone.add(f.getKey());
      } else if (!inPack.isEmpty()) {
        kept.add(f.getKey());
      }
    }
    assertThat(gone).as("files the damage costs").isNotEmpty();
    return new Expect(gone, kept);
  }

  /** TreeAssert's differences, which name paths relative to {@code source}, made absolute. */
  private static List<String> absolute(Path source, List<String> differences) {
    return differences.stream()
        .map(d -> d.startsWith("'") ? "'" + source + "/" + d.substring(1) : d)
        .toList();
  }

  /**
   * The packs, in name order, holding only file data and at least three chunks, used by at least
   * {@code filesAtLeast} files of a.
   */
  private List<String> dataPacksOfA(int filesAtLeast) throws IOException {
    Map<String, Set<String>> filesByPack = new TreeMap<>();
    files.forEach(
        (file, locs) -> {
          if (file.startsWith(first.toString())) {
            locs.forEach(
                l -> filesByPack.computeIfAbsent(l.pack(), k -> new TreeSet<>()).add(file));
          }
        });
    Index index = TestRepositories.open(pristine, clock).loadIndex();
    List<String> packs =
        filesByPack.entrySet().stream()
            .filter(p -> p.getValue().size() >= filesAtLeast)
            .filter(p -> index.packs().get(p.getKey()).size() >= 3)
            .filter(
                p ->
                    index.packs().get(p.getKey()).stream()
                        .allMatch(e -> e.type() == ChunkType.DATA))
            .map(Map.Entry::getKey)
            .toList();
    assertThat(packs).isNotEmpty();
    return packs;
  }

  private List<PackEntry> sortedEntries(String pack) throws IOException {
    List<PackEntry> entries =
        new ArrayList<>(TestRepositories.open(pristine, clock).loadIndex().packs().get(pack));
    entries.sort(Comparator.comparingInt(PackEntry::offset));
    return entries;
  }

  /**
   * Leaves {@code pack} in no index: one new index blob names every other pack and replaces the
   * ones there were, as a compaction that lost an entry would once its sweep had run.
   */
  private void dropFromTheIndex(InMemoryBlobStore store, String pack) throws IOException {
    Repository repo = TestRepositories.open(store, clock);
    Index index = repo.loadIndex();
    Map<String, List<PackEntry>> others = new HashMap<>(index.packs());
    others.remove(pack);
    repo.writeIndex(index.blobs(), others);
    for (Id old : index.blobs()) {
      store.delete(BlobKind.INDEX.nameOf(old));
    }
  }

  private static Set<String> packsNamedBy(Repository repo) throws IOException {
    repo.reloadIndex();
    return repo.loadIndex().packs().keySet();
  }

  private InMemoryBlobStore copy() throws IOException {
    InMemoryBlobStore copy = new InMemoryBlobStore(clock);
    TestRepositories.copy(pristine, copy);
    return copy;
  }

  /** Replaces {@code name} by {@code bytes}, bypassing write-once, as a damaged disk would. */
  private static void replace(InMemoryBlobStore store, String name, byte[] bytes)
      throws IOException {
    var retention = store.retention(name);
    store.delete(name);
    store.create(name, bytes, retention);
  }

  private List<String> restoreDifferences(Repository repo, FileBackup.Result snapshot, Path source)
      throws IOException {
    Path target = Files.createTempDirectory(tmp, "restore");
    try {
      restore(repo, snapshot.manifest(), source, target);
    } catch (IOException e) {
      return List.of("restore failed: " + e.getMessage());
    }
    return TreeAssert.exact().differences(source, target);
  }

  /**
   * What {@code verify --read-data} finds, run as a new command would: on the repository opened
   * afresh, so warnings this one gave before a repair are not counted again.
   */
  private List<String> verify(Repository repo) throws IOException {
    return new Verify(TestRepositories.open(repo.store(), clock))
        .run(true, VerifyListener.NONE)
        .problems();
  }

  private static List<AuditingBlobStore.Call> creates(AuditingBlobStore audit) {
    return audit.calls().stream().filter(c -> c.operation() == BlobOperation.CREATE).toList();
  }
}
